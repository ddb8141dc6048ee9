"""The record on PostgreSQL: one record for every host on one database."""
