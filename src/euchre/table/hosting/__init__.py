"""Hosting tables: the tables a server runs (open, find, resume, close), which process owns
each when many processes serve one site, and retiring abandoned practice tables.
"""
