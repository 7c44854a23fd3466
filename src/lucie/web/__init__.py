"""The browser game: a Starlette app serving a JSON API and the page (a
Jinja2 template, in the language of the player's choice or browser:
:mod:`lucie.web.language`) with its ES modules (``web/static``).

``lucie web`` runs it (see :mod:`lucie.cli.web_cmds`).  The page's
JavaScript knows no rule of the game: it draws what the server sends (the
position, and for each playable card the targets that are legal) and sends
moves in text notation; the server checks them with the engine.

>>> from lucie.web.app import create_app
>>> app = create_app(db_path=None)
>>> [r.path for r in app.routes if "move" in r.path]
['/api/games/{game_id}/move']
"""

from __future__ import annotations

from lucie.web.app import MAX_BODY, create_app

__all__ = ["MAX_BODY", "create_app"]
