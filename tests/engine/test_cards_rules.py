"""Cards and rules: parsing, formatting, variants, contradictory settings."""

from __future__ import annotations

import pytest

from lucie.cards import DECK, SUITS, Card, format_cards, parse_cards
from lucie.errors import CardError, RulesError
from lucie.rules import CLASSIC, VARIANTS, Rules, accepts


class TestCard:
    def test_every_card_round_trips_through_text_and_glyph(self) -> None:
        for card in DECK:
            assert Card.parse(str(card)) is card
            assert Card.parse(card.glyph()) is card
            assert Card.parse(str(card).lower()) is card
            assert eval(repr(card)) is card

    @pytest.mark.parametrize(
        "text, expected",
        [("TH", "TH"), ("10H", "TH"), ("10♥", "TH"), ("q♦", "QD"), (" as ", "AS"),
         ("k♣", "KC"), ("2s", "2S")],
    )
    def test_accepted_spellings(self, text: str, expected: str) -> None:
        assert str(Card.parse(text)) == expected

    @pytest.mark.parametrize("bad", ["", "1H", "11H", "TX", "H", "ZZ", "10", "AH2", "♥"])
    def test_bad_tokens_are_errors_naming_the_token(self, bad: str) -> None:
        with pytest.raises(CardError) as info:
            Card.parse(bad)
        assert repr(bad) in str(info.value)

    def test_rank_suit_colour(self) -> None:
        qd = Card.parse("QD")
        assert (qd.rank, qd.suit, qd.is_red) == (12, "D", True)
        assert Card.parse("AS").is_red is False
        assert [c.suit for c in DECK[::13]] == list(SUITS)

    def test_glyph_uses_ten(self) -> None:
        assert Card.parse("TS").glyph() == "10♠"

    def test_card_lists(self) -> None:
        cards = parse_cards(["kh", "10s"])
        assert format_cards(cards) == "KH TS"

    def test_index_out_of_range(self) -> None:
        with pytest.raises(CardError):
            Card(52)


class TestRules:
    def test_named_variants_have_the_documented_settings(self) -> None:
        v = {name: var.rules for name, var in VARIANTS.items()}
        assert v["classic"] == CLASSIC and CLASSIC.num_fans == 18
        assert v["merci"].merci and v["merci"].redeals == 2
        assert v["trefoil"].aces_first and v["trefoil"].num_fans == 16
        assert (v["fan"].empty_fill, v["fan"].redeals) == ("king", 0)
        sh = v["shamrocks"]
        assert (sh.build, sh.direction, sh.max_fan, sh.redeals) == ("any", "updown", 3, 0)
        assert v["shamrocks2"] == sh.replace(kings_bottom=True)
        assert v["flower"].build == "any" and v["flower"].redeals == 2
        assert v["reserve"].cells == 4
        assert v["noredeal"].redeals == 0
        assert v["alternate"].build == "alternate"
        assert len(VARIANTS) == 10

    def test_spec_round_trip_for_every_variant_and_combinations(self) -> None:
        for variant in VARIANTS.values():
            assert Rules.parse(variant.rules.spec()) == variant.rules
            assert variant.rules.name() == variant.title
        combo = Rules.parse("trefoil,merci=on,redeal_only_when_stuck=yes")
        assert combo.aces_first and combo.merci and combo.redeal_only_when_stuck
        assert Rules.parse(combo.spec()) == combo
        assert Rules.from_settings(combo.settings()) == combo

    @pytest.mark.parametrize(
        "spec, words",
        [
            ("bogus", "unknown variant 'bogus'"),
            ("classic,colour=red", "unknown setting 'colour'"),
            ("classic,merci", "not a setting=value pair"),
            ("classic,merci=maybe", "expected on or off"),
            ("classic,build=rainbow", "build='rainbow'"),
            ("classic,max_fan=2", "max_fan=2 is smaller than fan_size=3"),
            ("classic,fans=17", "fans=17 does not fit the deal"),
            ("trefoil,fans=18", "fans=18 does not fit the deal"),
            ("classic,redeals=-1", "redeals=-1"),
            ("classic,cells=9", "cells=9"),
            ("classic,fan_size=1", "fan_size=1 would need 52 fans"),
            ("classic,redeals=two", "expected a whole number"),
        ],
    )
    def test_bad_specs_name_the_problem(self, spec: str, words: str) -> None:
        with pytest.raises(RulesError) as info:
            Rules.parse(spec)
        assert words in str(info.value)

    def test_fan_count_follows_fan_size(self) -> None:
        assert Rules.parse("classic,fan_size=4").num_fans == 13
        assert Rules.parse("classic,fan_size=5").num_fans == 11

    def test_accepts_builds_and_directions(self) -> None:
        c = Card.parse
        assert accepts(c("8C"), c("7C"), "suit", "down")
        assert not accepts(c("8C"), c("9C"), "suit", "down")
        assert accepts(c("8C"), c("9C"), "suit", "updown")
        assert not accepts(c("8C"), c("7S"), "suit", "down")
        assert accepts(c("8C"), c("7D"), "alternate", "down")
        assert not accepts(c("8C"), c("7S"), "alternate", "down")
        assert accepts(c("8C"), c("7S"), "any", "down")
        assert not accepts(c("8C"), c("6C"), "any", "updown")

    def test_suit_down_is_the_build_down_in_suit(self) -> None:
        assert Rules().suit_down and Rules.parse("reserve").suit_down
        assert Rules.parse("trefoil").suit_down
        for spec in ("shamrocks", "alternate", "classic,build=any", "classic,direction=updown"):
            assert not Rules.parse(spec).suit_down, spec

    def test_rules_accepts_empty_fans_and_max_fan(self) -> None:
        c = Card.parse
        fan_rules = VARIANTS["fan"].rules
        assert fan_rules.accepts((), c("KH")) and not fan_rules.accepts((), c("QH"))
        assert not CLASSIC.accepts((), c("KH"))
        assert Rules.parse("classic,empty_fill=any").accepts((), c("2H"))
        sh = VARIANTS["shamrocks"].rules
        assert sh.accepts((c("9S"), c("4D")), c("5H"))
        assert not sh.accepts((c("9S"), c("2D"), c("4D")), c("5H"))  # full at 3


class TestSettingNumbers:
    """Issue 25.4: every numeric setting is read by ``parse_int`` within
    ``SETTING_BOUNDS``; anything else is a ``RulesError`` naming the setting."""

    @pytest.mark.parametrize("key", ["cells", "redeals", "fan_size", "fans", "max_fan"])
    @pytest.mark.parametrize("value", ["²", "--5", "-0", "+3", "1e30", "3.0", "9" * 5000,
                                       "٣", "0x3", "", "nan", "3 4"])
    def test_odd_numbers_are_refused(self, key: str, value: str) -> None:
        with pytest.raises(RulesError, match=f"^{key}=") as info:
            Rules.parse(f"classic,{key}={value}")
        assert len(str(info.value)) < 120

    @pytest.mark.parametrize("key", ["cells", "redeals", "fan_size", "fans", "max_fan"])
    def test_bounds_are_the_documented_ones(self, key: str) -> None:
        from lucie.rules import SETTING_BOUNDS

        low, high = SETTING_BOUNDS[key]
        for bad in (low - 1, high + 1, 2**63):
            with pytest.raises(RulesError):
                Rules.parse(f"classic,{key}={bad}")
            with pytest.raises(RulesError):
                Rules.from_settings({key: bad})

    def test_numbers_within_bounds_are_read(self) -> None:
        assert Rules.parse("classic, cells= 4 ,redeals=0").cells == 4
        assert Rules.parse("classic,max_fan=52").max_fan == 52
        assert Rules.parse("classic,max_fan=none").max_fan is None
        assert Rules.from_settings({"cells": 2}).cells == 2

    def test_json_booleans_and_floats_are_not_numbers(self) -> None:
        for value in (True, 2.0, [2], {"n": 2}):
            with pytest.raises(RulesError, match=r"^cells="):
                Rules.from_settings({"cells": value})
