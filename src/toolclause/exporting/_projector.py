"""One walk that rewrites a JSON Schema into a provider's subset, noting every loss.

A `Profile` (see strict.py) says what the target takes; the `Projector` copies
the schema node by node, never mutating the contract, and:
- inlines local `$ref`s (all of them, or only those with sibling keys), cutting
  recursion where the target cannot take it;
- merges `allOf` branches into their parent when they agree;
- turns `oneOf` into `anyOf` where the target lacks it;
- drops keywords the target lacks, writing their meaning into the description
  (`{"minLength": 3}`) and recording a `Loss` for every constraint dropped;
- closes objects, makes optional properties required-and-nullable, renames
  properties the target rejects — whatever the profile asks.

Pointers in losses are canonical (`/inputSchema/properties/city/minLength`),
and the keys of `renames` are canonical too, relative to the schema root, so a
runtime walking the canonical schema can find them (see normalize.py).
"""

from __future__ import annotations

import difflib
import json
from typing import Any

from ..model import escape_token
from ..schema.keywords import STANDARD_KEYWORDS, type_alias
from ..schema.normalize import never_an_object, null_has_meaning
from ..schema.nullability import make_nullable
from ..schema.refs import ref_target, resolve_ref
from ..targets import JSON_SCHEMA_TYPES
from ._nullability import disjoint, is_array, is_object, object_branches, to_openapi_nullable
from ._words import append_sentence, describe
from .base import Loss
from .names import valid_names

# Keywords that only annotate: dropping them changes nothing a validator checks.
ANNOTATIONS = frozenset({
    "title", "description", "examples", "example", "$comment", "readOnly", "writeOnly", "deprecated",
    "contentEncoding", "contentMediaType", "contentSchema", "$schema", "$id", "id", "$anchor", "$vocabulary",
    "$dynamicAnchor", "$recursiveAnchor", "discriminator", "xml", "externalDocs", "propertyOrdering",
})
_CHILD_SCHEMA = ("items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
                 "unevaluatedItems", "unevaluatedProperties", "additionalItems")
_INFER_TYPE = (("object", ("properties", "additionalProperties", "required", "minProperties", "maxProperties",
                           "patternProperties")),
               ("array", ("items", "minItems", "maxItems", "prefixItems", "uniqueItems", "contains")),
               ("string", ("pattern", "minLength", "maxLength", "format")),
               ("number", ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")))
ANY_VALUE = ({"type": "string"}, {"type": "number"}, {"type": "boolean"}, {"type": "null"})
MAX_INLINE_DEPTH = 3  # how often one definition may be inlined inside itself before recursion is cut
MAX_PROJECTED_NODES = 100_000
"""Schema nodes one projection may write.  Inlining copies a definition at every $ref to it, so
twenty levels that each name the next twice write 2**20 nodes from a few hundred bytes."""


def _is_map(schema: dict[str, Any]) -> bool:
    """Free keys whose values share one schema, and nothing else: `{"additionalProperties": {...}}`."""
    extra = schema.get("additionalProperties")
    return isinstance(extra, dict) and bool(extra) and not schema.get("properties") and \
        not schema.get("patternProperties")


class TooLargeToInline(Exception):
    """The projection passed MAX_PROJECTED_NODES; the tool is reported, not exported with its arguments."""


def is_constraint(keyword: str) -> bool:
    return (keyword in STANDARD_KEYWORDS or keyword in ("divisibleBy", "disallow", "extends")) and \
        keyword not in ANNOTATIONS


class Projector:
    """Project one schema (a tool's input schema, or a structured-output schema)."""

    def __init__(self, profile: Any, tool: str, root: dict[str, Any], base: str) -> None:
        self.profile = profile
        self.tool = tool
        self.root = root
        self.base = base            # "/inputSchema"
        self.losses: list[Loss] = []
        self.renames: dict[str, dict[str, str]] = {}
        self._inlining: list[str] = []
        self._nodes = 0  # written so far, against MAX_PROJECTED_NODES

    # ------------------------------------------------------------------ entry

    def project_root(self) -> dict[str, Any]:
        schema = self._resolve_root_composition(self.root)
        out = self.node(schema, self.base, depth=0, required_here=True, is_root=True)
        if "type" not in out and (isinstance(out.get("properties"), dict) or object_branches(out)):
            out = {"type": "object", **out}  # a root of properties, or of object alternatives, is an object
        if self.profile.root_object and not is_object(out):
            self.lose("root-not-object", self.base, "type",
                      f"the root is not an object ({json.dumps(self.root.get('type'))}); "
                      f"the tool cannot be exported with its arguments")
            out = {"type": "object", "properties": {}}
            self._close(out, self.base, root=True)
        if self.profile.inline_refs == "all":
            out.pop("$defs", None)
            out.pop("definitions", None)
        return out

    def lose(self, code: str, pointer: str, keyword: str, lost: str) -> None:
        self.losses.append(Loss(code, lost, pointer, tool=self.tool, keyword=keyword))

    # ------------------------------------------------------------------ root composition

    def _resolve_root_composition(self, schema: dict[str, Any]) -> dict[str, Any]:
        """Merge a root anyOf/oneOf of objects into one object, for targets that reject it."""
        if not self.profile.merge_root_composition:
            return schema
        for keyword in ("anyOf", "oneOf"):
            branches = schema.get(keyword)
            if not isinstance(branches, list):
                continue
            objects = [self._deref(b) for b in branches if isinstance(b, dict)]
            merged: dict[str, Any] = {k: v for k, v in schema.items() if k != keyword}
            merged.setdefault("type", "object")
            properties = dict(merged.get("properties") or {})
            required_sets: list[set[Any]] = []
            for branch in objects:
                for name, sub in (branch.get("properties") or {}).items():
                    properties.setdefault(name, sub)
                req = branch.get("required")
                required_sets.append(set(req) if isinstance(req, list) else set())
            merged["properties"] = properties
            common = required_sets[0].intersection(*required_sets[1:]) if required_sets else set()
            own = own_required if isinstance(own_required := merged.get("required"), list) else []
            merged["required"] = list(dict.fromkeys([*own, *[n for n in properties if n in common]]))
            self.lose("root-alternatives-merged", f"{self.base}/{keyword}", keyword,
                      f"the root {keyword} of {len(branches)} alternatives was merged into one object; which "
                      f"properties go together (and which are required in each alternative) is no longer enforced")
            return merged
        return schema

    def _deref(self, schema: dict[str, Any]) -> dict[str, Any]:
        target = ref_target(self.root, schema.get("$ref"))
        if isinstance(target, dict):
            return {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
        return schema

    # ------------------------------------------------------------------ nodes

    def node(self, schema: Any, src: str, depth: int, required_here: bool = True,
             is_root: bool = False) -> dict[str, Any]:
        if schema is True or schema == {}:
            return self._any(src, {}) if self.profile.need_type else {}
        if not isinstance(schema, dict):
            self.lose("not-a-schema", src, "",
                      f"the schema {json.dumps(schema)[:40]} is not an object; exported as any value")
            return self._any(src, {}) if self.profile.need_type else {}
        self._nodes += 1
        if self._nodes > MAX_PROJECTED_NODES:
            raise TooLargeToInline(src)
        mark = len(self._inlining)
        schema, sources = self._inline_ref(schema, src)
        if isinstance(schema.get("allOf"), list):
            schema, sources = self._merge_all_of(schema, src, sources)
        out: dict[str, Any] = {}
        dropped: dict[str, Any] = {}
        for key, value in schema.items():
            here = f"{sources.get(key, src)}/{escape_token(key)}"
            handled = self._keyword(key, value, schema, here, sources.get(key, src), depth, out, dropped)
            if not handled:
                dropped[key] = value
        if isinstance(out.get("required"), list):
            self._required(out, sources.get("required", src), sources.get("properties", src))
        self._finish(out, schema, src, dropped, depth, is_root)
        del self._inlining[mark:]
        return out

    def _required(self, out: dict[str, Any], owner: str, properties_owner: str) -> None:
        """Required names follow their properties' renames; a name that is no property cannot stay in a
        closed object (no value could be accepted), so it goes, reported."""
        exported = {canonical: name for name, canonical in self.renames.get(properties_owner[len(self.base):],
                                                                            {}).items()}
        out["required"] = [exported.get(r, r) for r in out["required"]]
        if not self.profile.close_objects or not is_object(out):
            return
        properties = declared if isinstance(declared := out.get("properties"), dict) else {}
        kept = []
        for index, name in enumerate(out["required"]):
            if name in properties:
                kept.append(name)
                continue
            guess = difflib.get_close_matches(name, list(properties), n=1)
            self.lose("required-not-a-property", f"{owner}/required/{index}", "required",
                      f"'{name}' is required but is not a property, and a closed object cannot require it; "
                      f"it was left out" + (f" (did you mean '{guess[0]}'? it stays optional)" if guess else ""))
        out["required"] = kept

    def _keyword(self, key: str, value: Any, schema: dict[str, Any], here: str, owner: str, depth: int,
                 out: dict[str, Any], dropped: dict[str, Any]) -> bool:
        """Copy one keyword into `out` (projected); False when the target drops it."""
        p = self.profile
        if key == "type":
            self._type(value, here, out)
            return True
        if key == "properties" and isinstance(value, dict):
            out["properties"] = self._properties(value, schema, owner, depth)
            return True
        if key == "required":
            if isinstance(value, list):
                out["required"] = [r for r in value if isinstance(r, str)]
            return True
        if key in ("anyOf", "oneOf") and isinstance(value, list):
            self._alternatives(key, value, here, depth, out)
            return True
        if key in ("$defs", "definitions") and isinstance(value, dict):
            if p.inline_refs != "all":
                out[key] = {name: self.node(sub, f"{here}/{escape_token(name)}", depth)
                            for name, sub in value.items()}
            return True
        if key == "$ref":
            out["$ref"] = value  # a reference the target takes as it is (see _inline_ref)
            return True
        if key == "items" and isinstance(value, list):
            return False  # draft-4 tuple form: no target here takes it
        if key == "additionalProperties" and p.close_objects:
            return True  # _close sets it to false and says what that loses
        if key in _CHILD_SCHEMA and (p.keep is None or key in p.keep):
            out[key] = value if isinstance(value, bool) else self.node(value, here, depth + 1)
            return True
        if key == "default":
            if p.keep is None or "default" in p.keep:
                out[key] = value
                return True
            return False
        if key == "format" and p.formats is not None and (not isinstance(value, str) or value not in p.formats):
            return False
        if key == "enum" and isinstance(value, list):
            return self._enum(value, here, out)
        if key == "const" and p.const_to_enum:
            return self._enum([value], here, out)
        if key == "pattern" and p.regex_check is not None and isinstance(value, str) and p.regex_check(value):
            return False
        if key == "minItems" and p.min_items is not None and value not in p.min_items:
            if isinstance(value, int) and value > 1:
                out["minItems"] = 1
            return False
        if p.keep is not None and key not in p.keep:
            return False
        out[key] = value
        return True

    def _type(self, value: Any, here: str, out: dict[str, Any]) -> None:
        names = value if isinstance(value, list) else [value]
        kept = [n for n in names if isinstance(n, str) and n in JSON_SCHEMA_TYPES]
        unknown = [n for n in names if n not in kept]
        if unknown:
            hint = [type_alias(n)[1] for n in unknown if isinstance(n, str) and type_alias(n)[0]]
            self.lose("unknown-type-dropped", here, "type",
                      f"type {json.dumps(unknown)[:40]} is not a JSON Schema type and was dropped"
                      + (f" (run `toolclause lint --fix`: it means {hint[0]!r})" if hint and hint[0] else ""))
        if not kept:
            return
        out["type"] = kept[0] if len(kept) == 1 and not isinstance(value, list) else kept
        if isinstance(out["type"], list) and len(out["type"]) == 1:
            out["type"] = out["type"][0]

    def _enum(self, values: list[Any], here: str, out: dict[str, Any]) -> bool:
        p = self.profile
        if p.enum_scalars and any(isinstance(v, (dict, list)) for v in values):
            self.lose("structured-enum-dropped", here, "enum",
                      "enum values that are objects or arrays cannot be expressed; the enum was "
                      "dropped and its values listed in the description")
            return False
        if p.openapi:
            strings = [v if isinstance(v, str) else json.dumps(v) for v in values if v is not None]
            if any(not isinstance(v, str) for v in values if v is not None):
                self.lose("enum-as-strings", here, "enum",
                          "Gemini `parameters` takes string enum values only; "
                          "the model will send these values as strings")
            out["enum"] = strings
            if None in values:
                out["nullable"] = True
            return True
        out["enum"] = list(values)
        return True

    def _alternatives(self, key: str, branches: list[Any], here: str, depth: int, out: dict[str, Any]) -> None:
        projected = [self.node(b, f"{here}/{i}", depth) for i, b in enumerate(branches)]
        if key == "oneOf" and self.profile.one_of_to_any_of:
            if not disjoint(branches):
                self.lose("one-of-as-any-of", here, "oneOf",
                          "oneOf became anyOf: a value matching several alternatives is no longer rejected")
            key = "anyOf"
        if key in out:  # both anyOf and oneOf: the second joins through allOf semantics we cannot keep
            self.lose("extra-any-of-dropped", here, key, f"{key} beside another anyOf was dropped")
            return
        out[key] = projected

    def _properties(self, props: dict[str, Any], schema: dict[str, Any], owner: str,
                    depth: int) -> dict[str, Any]:
        rule = self.profile.property_rule
        rename: dict[str, str] = {}
        if rule is not None and (not self.profile.property_top_only or owner == self.base):
            bad = [n for n in props if not rule.pattern.fullmatch(n)]
            if bad:
                mapped = valid_names(list(props), rule)
                rename = {n: mapped[n] for n in props if mapped[n] != n}
                self.renames.setdefault(owner[len(self.base):], {}).update({v: k for k, v in rename.items()})
        required = listed if isinstance(listed := schema.get("required"), list) else []
        out = {}
        for name, sub in props.items():
            here = f"{owner}/properties/{escape_token(name)}"
            projected = self.node(sub, here, depth + 1, required_here=name in required)
            if self.profile.all_required and name not in required and null_has_meaning(sub):
                projected = self._not_given_apart(projected, sub, here)
            out[rename.get(name, name)] = projected
        return out

    def _not_given_apart(self, projected: dict[str, Any], canonical: dict[str, Any], here: str) -> dict[str, Any]:
        """An optional property whose null means something ("null clears the owner"): a strict model
        sends null for "not given", so the value travels as `{"set": value}` and null stays "not given"
        (`to_canonical_arguments` unwraps it).  Where the value may itself be an object, that cannot be
        told apart, and it is reported."""
        if not never_an_object(canonical):
            self.lose("null-meaning-merged", here, "description",
                      "the description gives null a meaning of its own, but strict mode sends null for a "
                      "property not given too: a call that leaves it out does what null does")
            return projected
        value = {k: v for k, v in projected.items() if k != "description"}
        how = 'To leave it as it is, send null; to change it, send {"set": value}, where null does what this says.'
        return {"anyOf": [{"type": "object", "properties": {"set": value}, "required": ["set"],
                           "additionalProperties": False}, {"type": "null"}],
                "description": append_sentence(projected.get("description"), how)}

    # ------------------------------------------------------------------ references and allOf

    def _inline_ref(self, schema: dict[str, Any], src: str) -> tuple[dict[str, Any], dict[str, str]]:
        ref = schema.get("$ref")
        if not isinstance(ref, str):
            return schema, {}
        mode = self.profile.inline_refs
        siblings = [k for k in schema if not k.startswith("$")]
        if not ref.startswith("#"):
            self.lose("external-ref", f"{src}/$ref", "$ref",
                      f"the external reference '{ref}' cannot be sent; exported as any value")
            return {k: v for k, v in schema.items() if k != "$ref"}, {}
        if mode == "none" or mode == "siblings" and not siblings:
            return schema, {}
        resolution = resolve_ref(self.root, ref)
        if not resolution.ok:
            self.lose("unresolved-ref", f"{src}/$ref", "$ref",
                      f"the reference '{ref}' resolves to nothing; exported as any value")
            return {k: v for k, v in schema.items() if k != "$ref"}, {}
        target = resolution.target
        if not isinstance(target, dict):
            return {k: v for k, v in schema.items() if k != "$ref"}, {}
        if self._inlining.count(ref) >= (MAX_INLINE_DEPTH if not self.profile.recursion else 1):
            if self.profile.recursion and mode != "all":
                return {"$ref": ref}, {}
            self.lose("recursion-unrolled", f"{src}/$ref", "$ref",
                      f"the recursive reference '{ref}' was unrolled {MAX_INLINE_DEPTH} levels deep; "
                      f"deeper values are not described")
            return {k: v for k, v in schema.items() if k != "$ref"}, {}
        self._inlining.append(ref)
        target_src = self.base + (resolution.pointer or "")
        merged = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
        sources = {k: target_src for k in target if k not in schema}
        merged, more = self._inline_ref(merged, target_src) if "$ref" in target else (merged, {})
        return merged, {**more, **sources}

    def _merge_all_of(self, schema: dict[str, Any], src: str,
                      sources: dict[str, str]) -> tuple[dict[str, Any], dict[str, str]]:
        """Merge allOf branches into the node; a branch that disagrees on a keyword is a loss."""
        branches = schema["allOf"]
        merged = {k: v for k, v in schema.items() if k != "allOf"}
        sources = dict(sources)
        for index, branch in enumerate(branches):
            here = f"{sources.get('allOf', src)}/allOf/{index}"
            if not isinstance(branch, dict):
                continue
            branch, _ = self._inline_ref(branch, here) if "$ref" in branch else (branch, {})
            if "$ref" in branch:
                branch = self._deref(branch)
            for key, value in branch.items():
                if key == "properties" and isinstance(value, dict):
                    merged["properties"] = {**value, **(merged.get("properties") or {})}
                    sources.setdefault(key, here)
                elif key == "required" and isinstance(value, list):
                    merged["required"] = list(dict.fromkeys([*(merged.get("required") or []), *value]))
                elif key not in merged:
                    merged[key] = value
                    sources[key] = here
                elif merged[key] != value and key not in ANNOTATIONS:
                    self.lose("all-of-conflict", f"{here}/{escape_token(key)}", key,
                              f"allOf branch {index} also sets '{key}' ({json.dumps(value)[:40]}); "
                              f"only the first value is kept")
        return merged, sources

    # ------------------------------------------------------------------ finishing a node

    def _finish(self, out: dict[str, Any], schema: dict[str, Any], src: str, dropped: dict[str, Any],
                depth: int, is_root: bool) -> None:
        p = self.profile
        if p.close_objects and is_object(out) and _is_map(schema) and self._map_as_pairs(out, schema, src, dropped,
                                                                                             depth):
            is_object_now = False
        else:
            is_object_now = True
        if p.need_type and "type" not in out and not any(k in out for k in ("anyOf", "$ref", "enum", "const")):
            inferred = next((t for t, keys in _INFER_TYPE if any(k in schema for k in keys)), None)
            if inferred is not None:
                out["type"] = inferred
            else:
                self._any(src, out)
        constraints = {k: v for k, v in dropped.items() if is_constraint(k) or k in ("default", "enum")}
        if constraints:
            self._note(out, constraints)
            for key, value in constraints.items():
                if key == "default":
                    continue  # the value is told in the description; nothing is enforced by a default
                self.lose("keyword-unsupported", f"{src}/{escape_token(key)}", key,
                          f"'{key}': {json.dumps(value, ensure_ascii=False)[:60]} is not supported by the target; "
                          f"it is stated in the description but no longer enforced")
        if p.array_items and is_array(out) and "items" not in out:
            self._items_for_array(out, src, depth)
        if is_object_now and is_object(out):
            self._close(out, src, root=is_root, had_extra=schema.get("additionalProperties"),
                        had_properties=isinstance(schema.get("properties"), dict))
        if p.openapi:
            to_openapi_nullable(out)

    def _items_for_array(self, out: dict[str, Any], src: str, depth: int) -> None:
        """The target rejects an array without `items`: any element (`{}`) where it takes that, else the
        scalars, reported."""
        if not self.profile.need_type:
            out["items"] = {}
            return
        self.lose("any-value-narrowed", f"{src}/items", "items",
                  "the array declares no items: its elements were narrowed to a string, number, boolean or "
                  "null (the target needs an items schema)")
        out["items"] = {"anyOf": [dict(b) for b in ANY_VALUE]}

    def _map_as_pairs(self, out: dict[str, Any], schema: dict[str, Any], src: str, dropped: dict[str, Any],
                      depth: int) -> bool:
        """A map (free keys, each value one schema) that a closed object cannot hold, sent as an array of
        `{key, value}` pairs: nothing is lost, and `to_canonical_arguments` turns the pairs back into the
        map.  False (nothing changed) when the node may also be something other than an object."""
        types = out.get("type")
        listed = types if isinstance(types, list) else [types]
        others = set(listed) - {"object", "null"}
        if others:
            return False
        out["type"] = "array" if types == "object" else ["array" if t == "object" else t for t in listed]
        value = self.node(schema["additionalProperties"], f"{src}/additionalProperties", depth + 1)
        out["items"] = {"type": "object",
                        "properties": {"key": {"type": "string"}, "value": value},
                        "required": ["key", "value"], "additionalProperties": False}
        for key in ("properties", "required", "additionalProperties"):
            out.pop(key, None)
        for bound, items in (("minProperties", "minItems"), ("maxProperties", "maxItems")):
            count = dropped.get(bound, out.get(bound))
            out.pop(bound, None)
            if isinstance(count, int) and not isinstance(count, bool) and \
                    (self.profile.keep is None or items in self.profile.keep) and \
                    (self.profile.min_items is None or items != "minItems" or count in self.profile.min_items):
                dropped.pop(bound, None)
                out[items] = count
        out["description"] = append_sentence(out.get("description"), "A map: one {key, value} item per entry.")
        return True

    def _any(self, src: str, out: dict[str, Any]) -> dict[str, Any]:
        self.lose("any-value-narrowed", src, "type",
                  "any JSON value was narrowed to a string, number, boolean or null (the target "
                  "needs a type on every schema)")
        out["anyOf"] = [dict(b) for b in ANY_VALUE]
        return out

    def _note(self, out: dict[str, Any], constraints: dict[str, Any]) -> None:
        note = describe(constraints)
        if len(note) > 300:  # a hint for the model, not a copy of the schema
            note = note[:299] + "…"
        out["description"] = append_sentence(out.get("description"), note)

    def _close(self, out: dict[str, Any], src: str, root: bool = False, had_extra: Any = None,
               had_properties: bool = True) -> None:
        p = self.profile
        if p.objects_need_properties and not isinstance(out.get("properties"), dict):
            out["properties"] = {}
        if not p.close_objects:
            return
        if isinstance(had_extra, dict) and had_extra:
            self.lose("free-map-closed", f"{src}/additionalProperties", "additionalProperties",
                      "a map with free keys (additionalProperties is a schema) cannot be expressed; only the "
                      "declared properties are accepted")
        elif had_extra is not False and not had_properties and not root:
            self.lose("free-object-closed", src, "additionalProperties",
                      "a free-form object cannot be expressed; only {} is accepted")
        out["additionalProperties"] = False
        if p.all_required and isinstance(out.get("properties"), dict):
            required = set(out.get("required") or [])
            for name, sub in out["properties"].items():
                if name not in required:
                    out["properties"][name] = make_nullable(sub)
            out["required"] = list(out["properties"])
