//! Graal Online text levels (`.nw`, `GLEVNW01`). Work in progress.
