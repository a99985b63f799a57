//! Modular exponentiation built on the Montgomery kernels.

pub mod window;
