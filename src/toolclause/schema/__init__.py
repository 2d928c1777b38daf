"""JSON Schema helpers: one walk per schema, keyword tables, meta-schema validators."""
