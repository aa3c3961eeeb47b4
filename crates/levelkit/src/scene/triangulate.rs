//! Triangulation of n-gon faces (placeholder; being written).
