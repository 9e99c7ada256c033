"""Online tournaments over HTTP (``tournaments_api.py``)."""
