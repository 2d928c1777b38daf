"""Running rules: engine, configuration, fixes and baselines."""
