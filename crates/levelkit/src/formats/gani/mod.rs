//! Graal Online animations (`.gani`). Work in progress.
