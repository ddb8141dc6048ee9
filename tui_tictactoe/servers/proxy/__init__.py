"""The PROXY protocol: a client's address from a trusted balancer."""
