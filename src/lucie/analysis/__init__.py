"""What is built on the exact search (:mod:`lucie.solver`): the odds of a
whole game (:mod:`~lucie.analysis.odds`), hints (:mod:`~lucie.analysis.hints`),
the review of a played game (:mod:`~lucie.analysis.review`), a deal's
difficulty (:mod:`~lucie.analysis.difficulty`), studies over many deals and
their checkpoints (:mod:`~lucie.analysis.study`,
:mod:`~lucie.analysis.checkpoint`) and the value cache they share
(:mod:`~lucie.analysis.cache`).

These modules use the search only through the public API of
:mod:`lucie.solver` (an import-linter contract in ``pyproject.toml``); the
search never imports them.
"""
