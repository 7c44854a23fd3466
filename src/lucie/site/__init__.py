"""A site's services: what many players share (``lucie serve``), over the
session and the store, in plain Python (no web framework).

The site's app (:mod:`lucie.web.site`) turns requests into calls of these
and never writes to the store itself:

- :mod:`lucie.site.players`: a site's players (a new anonymous one, found
  by id, renamed, handed over to a recovery code, deleted);
- :mod:`lucie.site.duels`: two players on one deal (opened, joined,
  ended), and :mod:`lucie.site.duel_hub`, their news between processes;
- :mod:`lucie.site.rates`: the rate counts every process shares;
- :mod:`lucie.site.tidy`: forgetting the idle anonymous players and the
  deals never played.

A game's life is :mod:`lucie.session`'s, and a challenge's
(:mod:`lucie.standings`): the local game has them too, and loads nothing
of this package.
"""
