"""The rooms across processes: the hub served to the games over a local socket."""
