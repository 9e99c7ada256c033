"""``/openapi.json``, generated from an app's registry and the wire models (OpenAPI 3.1).

Nothing here is written by hand: paths come from the endpoints, schemas from the models
(:func:`msgspec.json.schema_components`), so the document cannot drift from what is served.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ... import __version__
from ..wire.common import REF, ErrorAnswer
from ..wire.tables import TableSnapshot
from .json_only import CHANGING
from .registry import KIND_ANSWERS, KIND_REQUESTS, TEXT, Endpoint, Registry


class Schemas:
    """Models gathered while the document is built, turned into components at the end."""

    def __init__(self) -> None:
        """No models yet."""
        self.models: list[Any] = []

    def use(self, model: Any) -> dict[str, Any]:
        """A schema that refers to ``model`` (filled in by :meth:`resolve`)."""
        if model not in self.models:
            self.models.append(model)
        return {"$model": self.models.index(model)}

    def resolve(self, document: Any) -> dict[str, Any]:
        """Replace every placeholder in ``document``; returns the components."""
        schemas, components = msgspec.json.schema_components(self.models, ref_template=REF)

        def fill(node: Any) -> Any:
            if isinstance(node, dict):
                if set(node) == {"$model"}:
                    return schemas[node["$model"]]
                return {k: fill(v) for k, v in node.items()}
            if isinstance(node, list):
                return [fill(v) for v in node]
            return node

        filled = fill(document)
        document.clear()
        document.update(filled)
        return dict(sorted(components.items()))


def _content(schemas: Schemas, model: Any, text_too: bool = False) -> dict[str, Any]:
    if model == TEXT:
        return {"text/plain": {"schema": {"type": "string"}}}
    content: dict[str, Any] = {"application/json": {"schema": schemas.use(model)}}
    if text_too:
        content["text/plain"] = {"schema": {"type": "string"}}
    return content


def _operation(endpoint: Endpoint, registry: Registry[Any], schemas: Schemas) -> dict[str, Any]:
    op: dict[str, Any] = {"summary": endpoint.summary,
                          "operationId": f"{endpoint.method.lower()}_{endpoint.handler.__name__}"}
    if endpoint.description:
        op["description"] = endpoint.description
    if endpoint.params:
        op["parameters"] = [
            {"name": p.name, "in": p.where, "required": p.required or p.where == "path",
             "description": p.description, "schema": dict(p.schema)}
            for p in endpoint.params
        ]
    kinds = list(registry.kinds.values())
    if endpoint.body is not None:
        body = endpoint.body
        if body == KIND_REQUESTS:
            # exactly one kind fits a body: each names its kind (practice by default)
            schema: dict[str, Any] = {"oneOf": [schemas.use(k.request) for k in kinds]}
        else:
            schema = schemas.use(body)
        op["requestBody"] = {"required": True, "content": {"application/json": {"schema": schema}}}
    responses: dict[str, Any] = {}
    for status, model in endpoint.answers.items():
        if model == KIND_ANSWERS:
            content = {"application/json": {"schema": {
                "anyOf": [schemas.use(k.answer) for k in kinds]}}}
        elif model is None:
            content = None
        else:
            content = _content(schemas, model, endpoint.text_too and status == 200)
        responses[str(status)] = {"description": model.__doc__.strip().splitlines()[0]
                                  if hasattr(model, "__doc__") and model.__doc__
                                  and model not in (TEXT, KIND_ANSWERS) else "The answer."}
        if content is not None:
            responses[str(status)]["content"] = content
    refusals = dict(endpoint.refusals)
    if endpoint.method in CHANGING and endpoint.path.startswith("/api/"):
        refusals.setdefault(415, "Not ``Content-Type: application/json`` (a form or text "
                                 "post another site could forge); nothing changed.")
    for status, why in refusals.items():
        responses[str(status)] = {"description": why,
                                  "content": {"application/json": {
                                      "schema": schemas.use(ErrorAnswer)}}}
    op["responses"] = responses
    if endpoint.bot_token:  # a bot's bearer token, or (the empty one) a cookie or nothing
        op["security"] = [{BOT_TOKEN: []}, {}]
    return op


BOT_TOKEN = "botToken"
"""The name of the bot token's security scheme in the document."""


def openapi_document(registry: Registry[Any]) -> dict[str, Any]:
    """The OpenAPI 3.1 document of an app's HTTP API."""
    schemas = Schemas()
    paths: dict[str, dict[str, Any]] = {}
    for endpoint in registry.endpoints():
        if endpoint.documented:
            paths.setdefault(endpoint.path, {})[endpoint.method.lower()] = _operation(
                endpoint, registry, schemas)
    schemas.use(TableSnapshot)
    for model in registry.schemas():
        schemas.use(model)
    document: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {"title": "Euchre", "version": __version__,
                 "description": "Play euchre in the browser. The table socket "
                                "(/ws/tables/{table_id}) is described in /asyncapi.json."},
        "paths": paths,
    }
    components = schemas.resolve(document)
    document["components"] = {"schemas": components}
    if any(e.bot_token for e in registry.endpoints() if e.documented):
        document["components"]["securitySchemes"] = {BOT_TOKEN: {
            "type": "http", "scheme": "bearer",
            "description": "An outside bot's token (made on the account page, POST "
                           "/api/me/bots): the request acts as the bot. Unknown or "
                           "revoked: 401 bad_bot_token."}}
    return document
