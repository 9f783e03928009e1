"""The genres. Each is a package with the same parts; `base` holds the shared interface."""
