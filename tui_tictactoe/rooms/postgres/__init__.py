"""The rooms on PostgreSQL: several hosts on one database are one world of rooms."""
