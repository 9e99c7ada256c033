"""What operators use: the health and metrics endpoints, the metrics, logs and shutdown."""
