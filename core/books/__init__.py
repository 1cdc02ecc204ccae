"""Shipped data of the Connect 4 opening book (see core/c4book.py)."""
