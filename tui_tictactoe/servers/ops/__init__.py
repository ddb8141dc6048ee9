"""Running a server as a service: metrics, health, drain and logs a machine reads."""
