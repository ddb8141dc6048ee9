"""A hosted game's process: built, forked and relayed for a session."""
