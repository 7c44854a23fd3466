"""Numbered deals and redeals match PySolFC (through pysol-cards' generators)."""

from __future__ import annotations

import pytest
from pysol_cards.cards import CardRenderer, ms_rearrange
from pysol_cards.cards import createCards as pysol_create_cards  # noqa: N813
from pysol_cards.deal_game import Game as PysolGame
from pysol_cards.random import LCRandom31, MTRandom
from pysol_cards.random_base import RandomBase

from lucie.cards import KING, Card
from lucie.deals import (
    MS_LIMIT,
    check_deal_number,
    deal_layout,
    pysol_card,
    random_deal_number,
    shuffled_deck,
)
from lucie.engine import Game, Move, Position
from lucie.errors import DealError
from lucie.formats import format_layout
from lucie.rules import VARIANTS, Rules


def pysol_fan_layout(number: int) -> str:
    """pysol-cards' own layout for PySolFC's Fan-family deal ``number``."""
    text: str = PysolGame("fan", number, RandomBase.DEALS_PYSOLFC).calc_layout_string(
        CardRenderer(True)
    )
    return text.strip()


class TestNumberedDeals:
    @pytest.mark.parametrize("number", range(1, 201))
    def test_classic_deals_match_pysol_cards(self, number: int) -> None:
        ours = format_layout(Position.deal(Rules(), number))
        assert ours == pysol_fan_layout(number)

    @pytest.mark.parametrize("number", [32001, 32767, 100000, 123456789, 10**15 + 7])
    def test_mersenne_deals_match_pysol_cards(self, number: int) -> None:
        assert format_layout(Position.deal(Rules(), number)) == pysol_fan_layout(number)

    def test_32000_uses_the_mersenne_twister_as_pysolfc_does(self) -> None:
        # pysol-cards' convenience shuffle() says <= 32000 for MS; PySolFC says < 32000.
        assert MS_LIMIT == 32000
        deck, _ = shuffled_deck(32000)
        gen = MTRandom(32000)
        expected = [pysol_card(c.id) for c in gen.shuffle(pysol_create_cards(1))]
        assert deck == expected
        ms = LCRandom31(32000)
        ms_order = [pysol_card(c.id) for c in ms.shuffle(ms_rearrange(pysol_create_cards(1)))]
        assert deck != ms_order

    def test_card_ids_follow_pysolfc_suit_order(self) -> None:
        # PySolFC: suits C, S, H, D; id = suit * 13 + rank
        assert str(pysol_card(0)) == "AC"
        assert str(pysol_card(13)) == "AS"
        assert str(pysol_card(26)) == "AH"
        assert str(pysol_card(51)) == "KD"

    @pytest.mark.parametrize("number", [1, 2, 617, 31999, 40000])
    def test_trefoil_deals_aces_home_and_keeps_the_dealing_order(self, number: int) -> None:
        deck, _ = shuffled_deck(number)
        fans, foundations, _ = deal_layout(VARIANTS["trefoil"].rules, number)
        assert foundations == (1, 1, 1, 1)
        assert len(fans) == 16 and all(len(f) == 3 for f in fans)
        dealt = [c for c in reversed(deck) if c.rank != 1]
        for k, card in enumerate(dealt):
            assert fans[k % 16][k // 16] == card

    @pytest.mark.parametrize("number", [1, 3, 77, 5000, 99999])
    def test_shamrocks2_deal_follows_the_rule_book(self, number: int) -> None:
        deck, _ = shuffled_deck(number)
        # docs/rules.md#numbered-deals, written out plainly as an oracle:
        d = list(deck)
        for i in range(51):
            if d[i].rank == KING:
                for j in range(i % 17, i, 17):
                    if d[j].rank != KING:
                        d[i], d[j] = d[j], d[i]
                        break
        expected: list[list[Card]] = [[] for _ in range(18)]
        for k in range(52):
            expected[k % 17 if k < 51 else 17].append(d[k])
        fans, _, _ = deal_layout(VARIANTS["shamrocks2"].rules, number)
        assert fans == expected
        # and no king lies above a non-king in a three-card fan it could swap with
        for fan in fans[:17]:
            ranks = [c.rank for c in fan]
            if KING in ranks:
                first_non_king = next((i for i, r in enumerate(ranks) if r != KING), 3)
                assert all(r == KING for r in ranks[:first_non_king])

    @pytest.mark.parametrize("name", [n for n in VARIANTS if n not in ("trefoil", "shamrocks2")])
    def test_other_variants_deal_like_classic(self, name: str) -> None:
        rules = VARIANTS[name].rules
        for number in (1, 11, 31999, 32000):
            assert Position.deal(rules, number).fans == Position.deal(Rules(), number).fans

    def test_deal_numbers_are_checked(self) -> None:
        assert check_deal_number(" 42 ") == 42
        for bad in ("0", "-1", "abc", "1.5", "", True, 10**20):
            with pytest.raises(DealError):
                check_deal_number(bad)

    def test_random_deal_number_is_shown_and_replays(self) -> None:
        game = Game(Rules())
        assert game.deal is not None and 1 <= game.deal <= 999_999_999
        again = Game(Rules(), game.deal)
        assert again.position == game.position
        assert 1 <= random_deal_number() <= 999_999_999


def rule_book_redeal(number: int, table: Position, redeals_before: int, sizes: list[int]) -> \
        list[list[Card]]:
    """docs/rules.md#the-redeal-exactly, written out with pysol-cards' generator.

    ``sizes``: the pile sizes of the redeals already made (each consumes
    ``size - 1`` draws of the generator)."""
    gen = LCRandom31(number) if number < 32000 else MTRandom(number)
    cards = pysol_create_cards(1)
    gen.shuffle(ms_rearrange(cards) if number < 32000 else cards)
    for size in sizes[:redeals_before]:
        gen.shuffle(list(range(size)))
    pile = [c for fan in table.fans for c in fan]
    gen.shuffle(pile)
    n = len(pile)
    fans: list[list[Card]] = [[] for _ in range(18)]
    for i in range(3):
        count = (n // 3, (n + 1) // 3, (n + 2) // 3)[i]
        for f in range(count):
            fans[f].append(pile.pop())
    return fans


class TestRedeal:
    @pytest.mark.parametrize("number", [1, 5, 31999, 50000])
    def test_first_and_second_redeal_follow_the_rule_book(self, number: int) -> None:
        game = Game(Rules(), number)
        # play a few moves first so the gathered order is not the deal order
        for _ in range(3):
            plain = [m for m in game.legal_moves if not m.is_redeal]
            if plain:
                game.push(plain[0])
        sizes: list[int] = []
        for redeal in range(2):
            before = game.position
            expected = rule_book_redeal(number, before, redeal, sizes)
            sizes.append(before.cards_in_play())
            game.push("R")
            assert [list(f) for f in game.position.fans] == expected
            assert game.position.redeals_left == 1 - redeal

    def test_redeal_with_few_cards_gives_the_last_fan_the_rest(self) -> None:
        layout = "Foundations: C-J D-K H-K S-K\nQC KC"
        from lucie.formats import parse_layout

        game = Game(Rules(), position=parse_layout(layout, Rules()), seed=9)
        game.push("R")
        assert sorted(len(f) for f in game.position.fans if f) == [2]
        five = parse_layout("Foundations: C-8 D-K H-K S-K\n9C TC JC QC KC", Rules())
        g5 = Game(Rules(), position=five, seed=3)
        g5.push("R")
        assert [len(f) for f in g5.position.fans[:3]] == [3, 2, 0]

    def test_undo_redo_of_a_redeal_gives_the_same_cards(self) -> None:
        game = Game(Rules(), 7)
        game.push("R")
        after = game.position
        game.pop()
        game.redo()
        assert game.position == after
        game.pop()
        game.push(Move.parse("R"))
        assert game.position == after

    def test_undo_restores_the_generator(self) -> None:
        # after undoing a redeal and changing the table, the next redeal uses the
        # same generator state (as PySolFC's undo does)
        game = Game(Rules(), 1)
        game.push("R")
        game.pop()
        game.push("f>i")
        game.push("R")
        sizes: list[int] = []
        start = Game(Rules(), 1)
        start.push("f>i")
        expected = rule_book_redeal(1, start.position, 0, sizes)
        assert [list(f) for f in game.position.fans] == expected
