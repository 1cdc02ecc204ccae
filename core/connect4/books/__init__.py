"""Shipped data of the Connect 4 opening book (see core/connect4/book.py)."""
