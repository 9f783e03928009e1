"""The API's routers, one per resource: pages, health (and the genres), puzzles (the library),
steps (with their stream), jobs, games, and each genre's own endpoints (`genre_actions`,
included last). None of them names a genre: they call the genre interface and the session."""
