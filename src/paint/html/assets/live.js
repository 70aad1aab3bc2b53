// hp2ps's live page: follows the run (src/paint/html/live.rs).
