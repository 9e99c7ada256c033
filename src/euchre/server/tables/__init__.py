"""Tables over HTTP and sockets: the table API, practice tables, the table socket and its limits,
hints, outside bots' seats, and relays to the process running a table.
"""
