"""The server's foundation: the registry, the encoder and errors, the guards at the edge, who is
asking, the pages and the generated documents.
"""
