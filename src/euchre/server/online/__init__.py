"""Online play: online tables, the lobby and its sockets, coin stakes, and a person's games in
progress.
"""
