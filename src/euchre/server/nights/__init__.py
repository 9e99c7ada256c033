"""Euchre nights in a room (host mode): the host's API and the tables' scoring by code."""
