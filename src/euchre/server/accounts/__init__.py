"""Accounts and coins: sign-up and sign-in, the balance, coin tables, statistics, ratings and
outside bots' tokens.
"""
