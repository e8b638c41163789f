"""The API's blueprints: flask-smorest's, with every answer sent through the one redaction on the way out,
and each argument schema built once instead of per request.

Every route's return value (reads, command answers, replayed Idempotency-Key answers) passes through
``api.context.door``, which shows the token's side only what the table would see: a new route cannot
forget it.

Given a schema class, webargs builds an instance on every request it parses (field
binding and deep copies, about a tenth of a roll request's CPU in the worker). An
instance given once is used as it is; loading keeps no state on it, so the threads
of a worker share it, as they already share the response schemas.
"""

from __future__ import annotations

import functools
from inspect import iscoroutinefunction
from types import FunctionType
from typing import Any

import flask_smorest
from flask.globals import _cv_app  # Flask's own context variable: one look-up where a proxy makes four
from flask_smorest.utils import resolve_schema_instance, set_status_and_headers_in_response, unpack_tuple_response
from werkzeug import Response

from api.context import door
from api.flask_app import TrackerFlask
from api.json_body import DecodedOnceParser


class Blueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = DecodedOnceParser()  # the body decoded once per request (api/json_body.py)

    @staticmethod
    def doc(**kwargs: Any):
        """flask-smorest's ``doc``: the same documentation on the view, but a plain (not async) view is called
        straight. flask-smorest's wrapper looks up ``current_app`` (a context proxy) and asks its ``ensure_sync`` on
        every call, which for a plain function hands back the function itself; a roll's view passes through four of
        these wrappers (the access declaration, its operationId, its headers, its body's document). A plain function
        gets a copy of itself instead (the same code, globals, defaults and closure, so the same calls), which carries
        the documentation as a wrapper did, without a call of its own."""
        documents = flask_smorest.Blueprint.doc(**kwargs)

        def decorator(func: Any) -> Any:
            documented = documents(func)
            if iscoroutinefunction(func):
                return documented  # Flask's ensure_sync runs it
            if func.__class__ is FunctionType:
                copied = FunctionType(func.__code__, func.__globals__, func.__name__, func.__defaults__, func.__closure__)
                copied.__kwdefaults__ = func.__kwdefaults__
                functools.update_wrapper(copied, func)  # its name, docstring, attributes, and __wrapped__ as a wrapper's
                copied._apidoc = documented._apidoc  # type: ignore[attr-defined]
                return copied

            @functools.wraps(func)
            def wrapper(*args: Any, **kwargs_: Any) -> Any:
                return func(*args, **kwargs_)

            wrapper._apidoc = documented._apidoc  # type: ignore[attr-defined]
            return wrapper

        return decorator

    def response(self, status_code: Any, schema: Any = None, **kwargs: Any):
        schema = resolve_schema_instance(schema)  # one instance, documented and dumping, as flask-smorest makes it
        decorate = super().response(status_code, schema, **kwargs)

        def wrap(view: Any) -> Any:
            @functools.wraps(view)
            def disclosed(*view_args: Any, **view_kwargs: Any) -> Any:
                answer = view(*view_args, **view_kwargs)
                shown = door()
                if isinstance(answer, tuple):
                    return (shown(answer[0]), *answer[1:])
                return shown(answer)

            documented = decorate(disclosed)
            if iscoroutinefunction(view) or not (schema is None or hasattr(schema, "dump")):
                return documented

            @functools.wraps(disclosed)
            def answered(*view_args: Any, **view_kwargs: Any) -> Any:
                """flask-smorest's answer, step for step (its response wrapper), with the application and g found once,
                where its wrapper asks the context proxies for them four times, and ``disclosed`` called straight, as
                plain as ``doc`` above finds it."""
                result, status, headers = unpack_tuple_response(disclosed(*view_args, **view_kwargs))
                if isinstance(result, Response):
                    set_status_and_headers_in_response(result, status, headers)
                    return result
                dumped = result if schema is None else schema.dump(result)
                app_context = _cv_app.get()
                app_context.g.setdefault("_flask_smorest", {})["result_dump"] = dumped  # flask-smorest's ETag reads it
                content = self._prepare_response_content(dumped)
                app = app_context.app
                if not isinstance(app, TrackerFlask):
                    answer = app.json.response(content)  # what jsonify does
                    set_status_and_headers_in_response(answer, status, headers)
                    if status is None:
                        answer.status_code = status_code
                    return answer
                # The same answer made with its status (not 200, then the status), its headers after the body's own.
                answer = app.json_answer(content, status_code if status is None else status)
                if headers:
                    answer.headers.extend(headers)
                return answer

            answered._apidoc = documented._apidoc  # type: ignore[attr-defined]
            return answered

        return wrap

    def arguments(self, schema: Any, **kwargs: Any):
        # An unknown query parameter is refused before any view runs, on every route alike (api/query.py reads the
        # query schema declared here); webargs then only loads the parameters the route takes.
        schema = schema() if isinstance(schema, type) else schema
        decorate = super().arguments(schema, **kwargs)
        as_sent = self.ARGUMENTS_PARSER.body_as_sent(schema, kwargs)

        def wrap(view: Any) -> Any:
            parsed = decorate(view)  # webargs' wrapper (it parses), over flask-smorest's (which calls the view)
            if as_sent is None or iscoroutinefunction(view):
                return parsed

            @functools.wraps(parsed)
            def taken_as_sent(*view_args: Any, **view_kwargs: Any) -> Any:
                """A JSON body its schema loads as sent goes to the view as webargs would hand it (after the view's
                own arguments), without webargs' parse; any other is parsed by webargs, and refused, as before."""
                body = as_sent()
                if body is None:
                    return parsed(*view_args, **view_kwargs)
                return view(*view_args, body, **view_kwargs)

            return taken_as_sent

        return wrap
