"""Learned agents: a small policy/value network in plain numpy (net.py), so that
playing and training need nothing beyond numpy, and the nets shipped with plyground
(nets/<game id>.npz)."""
