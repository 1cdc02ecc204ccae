"""Theme files for the app: one TOML file a theme (see tui/themes.py for the format)."""
