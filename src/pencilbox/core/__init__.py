"""Machinery shared by every genre: grids, steps, the SAT back end, timing."""
