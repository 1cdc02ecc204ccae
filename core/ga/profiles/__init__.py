"""Shipped profiles of the `ga` agent (data only; see core/ga/profile.py)."""
