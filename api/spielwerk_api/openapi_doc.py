"""The OpenAPI document says exactly what the server refuses.

Litestar writes a Struct's schema itself, and two of its habits let a generated client (or
schemathesis) send a request the document calls valid and the server refuses:
- a union such as ``Annotated[int, Meta(ge=0, le=7)] | None`` loses its members' bounds, so
  a negative seat or a seed string of letters looked valid;
- ``Meta(extra_json_schema=…)``, which documents a rule the server checks itself (a name's
  letters, in German words), is dropped.

msgspec decodes every request body, so its own JSON schema of a field is what the server
accepts; ``ExactStructs`` takes it for every field that holds no other Struct and whose bounds
Litestar lost.
"""

from __future__ import annotations

from typing import Any

import msgspec
from litestar._openapi.schema_generation.plugins.struct import StructSchemaPlugin
from litestar.openapi.spec import OpenAPIType, Reference, Schema

# The JSON Schema keywords msgspec writes for a field without Structs, as Litestar names them.
_SCALARS = {
    "minimum": "minimum",
    "maximum": "maximum",
    "exclusiveMinimum": "exclusive_minimum",
    "exclusiveMaximum": "exclusive_maximum",
    "minLength": "min_length",
    "maxLength": "max_length",
    "pattern": "pattern",
    "minItems": "min_items",
    "maxItems": "max_items",
    "uniqueItems": "unique_items",
    "minProperties": "min_properties",
    "maxProperties": "max_properties",
    "enum": "enum",
    "const": "const",
    "description": "description",
    "format": "format",
}


def schema_from_json(doc: dict[str, Any]) -> Schema:
    """The Litestar ``Schema`` of a JSON Schema that msgspec wrote (no references in it)."""
    kwargs: dict[str, Any] = {}
    for key, value in doc.items():
        if key == "type":
            kwargs["type"] = OpenAPIType(value)
        elif key in ("anyOf", "oneOf"):
            kwargs["one_of"] = [schema_from_json(member) for member in value]
        elif key == "items":
            kwargs["items"] = schema_from_json(value)
        elif key == "additionalProperties":
            kwargs["additional_properties"] = value if isinstance(value, bool) else schema_from_json(value)
        elif key in _SCALARS:
            kwargs[_SCALARS[key]] = value
        else:
            raise ValueError(f"a JSON Schema keyword this document does not carry: {key}")
    return Schema(**kwargs)


# What bounds a value; descriptions, enums and types Litestar already writes as msgspec does.
_BOUNDS = {key for key in _SCALARS if key not in ("enum", "const", "description", "format")}


def _bounds(doc: dict[str, Any]) -> set[str]:
    """The bounding keywords of a schema, its union's members included."""
    members = doc.get("anyOf", [])
    return {key for key in doc if key in _BOUNDS} | {key for member in members for key in _bounds(member)}


def _has_reference(doc: Any) -> bool:
    if isinstance(doc, dict):
        return "$ref" in doc or any(_has_reference(value) for value in doc.values())
    if isinstance(doc, list):
        return any(_has_reference(value) for value in doc)
    return False


class ExactStructs(StructSchemaPlugin):
    """Litestar's schemas of msgspec Structs, with each plain field's schema as msgspec
    checks it, and ``additionalProperties: false`` for Structs that refuse unknown fields."""

    def to_openapi_schema(self, field_definition: Any, schema_creator: Any) -> Schema:
        schema = super().to_openapi_schema(field_definition, schema_creator)
        info = msgspec.inspect.type_info(field_definition.type_)
        if not isinstance(info, msgspec.inspect.StructType):
            return schema
        if info.forbid_unknown_fields:
            schema.additional_properties = False
        hints = field_definition.get_type_hints(include_extras=True, resolve_generics=True)
        for struct_field in info.fields:
            written = (schema.properties or {}).get(struct_field.encode_name)
            exact = msgspec.json.schema(hints[struct_field.name])
            # A Struct inside is Litestar's component; an empty schema is msgspec.Raw or Any.
            if written is None or isinstance(written, Reference) or not exact or _has_reference(exact):
                continue
            # Only where Litestar lost a bound: elsewhere its schema is msgspec's already.
            kept = {key for key, name in _SCALARS.items() if getattr(written, name) is not None}
            if "anyOf" not in exact and _bounds(exact) <= kept:
                continue
            if "anyOf" in exact and not _bounds(exact):
                continue
            replaced = schema_from_json(exact)
            replaced.default = written.default
            if replaced.description is None:
                replaced.description = written.description
            assert schema.properties is not None
            schema.properties[struct_field.encode_name] = replaced
        return schema
