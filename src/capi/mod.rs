//! The C ABI: every `extern "C"` item and nothing else.
