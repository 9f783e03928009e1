"""Scripts that make things for the repository: the digit model, the picture corpus."""
