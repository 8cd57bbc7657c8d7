"""The audience's predictions (partyrummy/audience): pure, deterministic, read off the public table alone.

A round's life on hand-made tables, the points (right, wrong, bolder), and a state machine that plays real games
on the engine with random legal commands while members join and pick at random: a pick is taken only while its
hand has shown nothing but its deal, every answer is what the public table said, the journal replays to the same
book, and the players' totals are the engine's whatever the audience does.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from partyrummy.audience import predictions as book_of
from partyrummy.audience.facts import Facts, facts_of
from partyrummy.audience.predictions import (
    BASE,
    BOLD,
    CLOSED,
    NO,
    OPEN,
    RESOLVED,
    VOID,
    YES,
    Book,
    Close,
    Join,
    Open,
    Pick,
    Refused,
    Resolve,
    Settings,
    Void,
    apply,
    check_join,
    check_pick,
    due,
    earned,
    from_dict,
    to_dict,
)
from partyrummy.audience.views import member, public
from partyrummy.phones import game as engine
from partyrummy.phones.legal import legal_commands
from partyrummy.phones.views import table_view
from partyrummy.rules.errors import RummyError
from partyrummy.rules.variants import default_variants

NAMES = ("Ana", "Bo", "Cy", "Di")


def settle(book: Book, facts: Facts) -> Book:
    for move in due(book, facts):
        book = apply(book, move)
    return book


def lobby(seats=NAMES[:3], game=0) -> Facts:
    return Facts(game=game, hand=0, seats=tuple(seats))


def at_table(**fields) -> Facts:
    """A hand of game 1 dealt to the first three names, with `fields` as given."""
    return Facts(**({"game": 1, "hand": 1, "seats": NAMES[:3], "dealt": NAMES[:3]} | fields))


def dealt(hand=1, begun=False, matched=None, game=1, totals=(0, 0, 0)) -> Facts:
    return at_table(game=game, hand=hand, playing=True, begun=begun or bool(matched), totals=totals, first=matched)


def scored(points, first="Ana", hand=1, game=1, totals=None, over=False) -> Facts:
    return at_table(game=game, hand=hand, scored=True, over=over, first=first, totals=tuple(totals or points),
                    points=tuple(points))


def joined(book: Book, *names: str) -> Book:
    for name in names:
        book = apply(book, Join(name, f"token-{name}"))
    return book


def test_a_round_opens_in_the_lobby_closes_at_the_first_draw_and_resolves_when_the_hand_is_scored() -> None:
    book = settle(joined(Book(), "Zoe", "Max", "Lu"), lobby())
    assert book.round.status == OPEN and book.round.key == (1, 1) and book.round.subject == "Ana"
    for who, first, under, worst in ((0, "Ana", YES, "Cy"), (1, "Bo", NO, "Cy"), (2, "Bo", YES, "Bo")):
        for key, option in (("first", first), ("under", under), ("worst", worst)):
            book = apply(book, check_pick(book, lobby(), who, key, option))
    book = settle(book, dealt())  # dealt: nothing of the hand shown yet, still open
    assert book.round.status == OPEN
    book = apply(book, check_pick(book, dealt(), 2, "first", "Ana"))  # a change of mind, before "Draw!"
    book = settle(book, dealt(begun=True))
    assert book.round.status == CLOSED and book.round.options == NAMES[:3]
    try:
        check_pick(book, dealt(begun=True), 1, "first", "Ana")
        raise AssertionError("a pick after the first Draw! was taken")
    except RummyError as refusal:
        assert refusal.key == "error.predictions_closed" and refusal.code == "out_of_phase"
    assert book.round.split()["first"] == {"Ana": 2, "Bo": 1}
    book = settle(book, scored((0, 12, 30), first="Ana"))
    last = book.last
    assert last.status == RESOLVED and dict(last.answers) == {"first": ("Ana",), "under": (YES,), "worst": ("Cy",)}
    # first: 2 of 3 said Ana (50 + 100*1//3 = 83); under: 2 of 3 said yes (83); worst: 2 of 3 said Cy (83).
    assert dict(last.earned[0]) == {"first": 83, "under": 83, "worst": 83}
    assert dict(last.earned[1]) == {"first": 0, "under": 0, "worst": 83}
    assert dict(last.earned[2]) == {"first": 83, "under": 83, "worst": 0}
    assert book.points == (249, 83, 166)
    # The next hand's round opened with the scores: its leader is who leads now.
    assert book.round.key == (1, 2) and book.round.status == OPEN and book.round.subject == "Ana"
    # The TV names the hand's best guessers with what they just earned, the most first.
    assert public(book, scored((0, 12, 30)), False)["top"] == [
        {"name": "Zoe", "earned": 249, "points": 249},
        {"name": "Lu", "earned": 166, "points": 166},
        {"name": "Max", "earned": 83, "points": 83},
    ]


def test_a_bold_guess_earns_more_and_a_lone_one_nearly_the_most() -> None:
    picks = {(i, "first"): ("Bo" if i == 0 else "Ana") for i in range(10)}
    won = earned(picks, {"first": ("Bo",)})
    assert won[0]["first"] == BASE + BOLD * 9 // 10 and all(won[i]["first"] == 0 for i in range(1, 10))
    won = earned(picks, {"first": ("Ana",)})
    assert won[0]["first"] == 0 and won[1]["first"] == BASE + BOLD * 1 // 10
    assert earned({(0, "first"): "Ana"}, {"first": ("Ana",)})[0]["first"] == BASE  # alone and everyone


def test_a_question_the_hand_cannot_answer_is_void_and_scores_nothing() -> None:
    book = settle(joined(Book(), "Zoe"), lobby())
    for key, option in (("first", "Bo"), ("under", NO), ("worst", "Cy")):
        book = apply(book, check_pick(book, lobby(), 0, key, option))
    book = settle(book, dealt(matched="Bo"))  # a Match! on the deal closes it too
    assert book.round.status == CLOSED
    book = settle(book, scored((0, 0, 0), first="Bo"))  # nobody took a penalty: `worst` is void
    assert dict(book.last.answers) == {"first": ("Bo",), "under": (YES,)}
    assert dict(book.last.earned[0]) == {"first": BASE, "under": 0}


def test_a_round_whose_hand_never_comes_is_void() -> None:
    book = settle(joined(Book(), "Zoe"), scored((3, 4, 5), hand=2))
    assert book.round.key == (1, 3)
    book = apply(book, check_pick(book, scored((3, 4, 5), hand=2), 0, "first", "Cy"))
    book = settle(book, lobby(game=1))  # the seats moved after the game: hand 3 will not come
    assert book.last.status == VOID and book.last.key == (1, 3) and book.points == (0,)
    assert book.round.key == (2, 1)


def test_switched_off_the_round_under_way_keeps_its_picks_closes_and_resolves_and_the_next_waits() -> None:
    book = settle(joined(Book(), "Zoe", "Max"), lobby())
    book = apply(book, check_pick(book, lobby(), 0, "first", "Bo"))
    book = settle(apply(book, Settings(False, None)), lobby())
    assert book.round.status == OPEN and dict(book.round.picks) == {(0, "first"): "Bo"}
    try:
        check_join(book, 200)
        raise AssertionError("joined an audience that is off")
    except Refused as refusal:
        assert refusal.key == "error.audience_off"
    # Its members still guess until the hand closes it: the round was theirs before the switch.
    book = apply(book, check_pick(book, lobby(), 1, "first", "Cy"))
    book = settle(book, dealt(begun=True))
    assert book.round.status == CLOSED and book.round.split()["first"] == {"Bo": 1, "Cy": 1}
    book = settle(book, scored((0, 12, 30), first="Bo"))
    assert book.last.status == RESOLVED and book.points == (BASE + BOLD // 2, 0)
    assert book.round is None  # off: the next hand's round waits
    book = settle(apply(book, Settings(True, None)), scored((0, 12, 30), first="Bo"))
    assert book.round.key == (1, 2) and book.round.status == OPEN


@given(
    switches=st.lists(st.tuples(st.booleans(), st.sampled_from([None, 1, 2, 10])), max_size=6),
    picks=st.lists(st.tuples(st.integers(0, 2), st.sampled_from(["first", "worst"]), st.sampled_from(NAMES[:3])),
                   max_size=8),
)
def test_no_switch_or_cap_the_host_sets_drops_a_guess(switches, picks) -> None:
    """Whatever the host sets between the guesses (off, on, a cap under the members' count), every guess made
    stands: the last of each member's question, as made."""
    book = settle(joined(Book(), "Zoe", "Max", "Lu"), lobby())
    made = {}
    for i, (member_, key, option) in enumerate(picks):
        book = apply(book, check_pick(book, lobby(), member_, key, option))
        made[(member_, key)] = option
        if i < len(switches):
            book = settle(apply(book, Settings(*switches[i])), lobby())
    for setting in switches[len(picks):]:
        book = settle(apply(book, Settings(*setting)), lobby())
    assert book.round.key == (1, 1) and dict(book.round.picks) == made
    assert [m.predicting for m in book.members] == [True] * 3  # a cap under three takes nobody out


def test_the_cap_counts_members_still_predicting() -> None:
    book = apply(joined(Book(), "Zoe", "Max"), Settings(True, 2))
    try:
        check_join(book, 200)
        raise AssertionError("a third member past a cap of two")
    except Refused as refusal:
        assert refusal.key == "error.audience_full"
    check_join(apply(book, book_of.Seated(0)), 200)  # Zoe took a seat: there is room again
    check_join(apply(book, Settings(True, None)), 2 + 1)


def test_options_while_open_are_the_seats_and_a_pick_of_one_who_left_is_dropped_at_the_close() -> None:
    book = settle(joined(Book(), "Zoe"), lobby(NAMES))
    book = apply(book, check_pick(book, lobby(NAMES), 0, "first", "Di"))
    try:
        check_pick(book, lobby(NAMES), 0, "first", "Eve")
        raise AssertionError("a name nobody has was taken")
    except Refused as refusal:
        assert refusal.key == "error.no_option"
    book = settle(book, dealt(begun=True))  # Di left before the deal
    assert book.round.picks == {}


@given(
    st.lists(
        st.tuples(
            st.integers(0, 20),
            st.sampled_from(["first", "under", "worst"]),
            st.sampled_from(["Ana", "Bo", "Cy", YES, NO]),
        ),
        max_size=60,
    ),
    st.dictionaries(
        st.sampled_from(["first", "under", "worst"]),
        st.lists(st.sampled_from(["Ana", "Bo", "Cy", YES, NO]), min_size=1, max_size=2).map(tuple),
    ),
    st.randoms(),
)
def test_points_right_ones_between_base_and_base_plus_bold_bolder_ones_more_and_order_does_not_matter(
    made: list, answers: dict, rng
) -> None:
    picks = {(m, k): o for m, k, o in made}
    won = earned(picks, answers)
    shuffled = list(picks.items())
    rng.shuffle(shuffled)
    assert earned(dict(shuffled), answers) == won  # the order the picks came in changes nothing
    for (m, k), option in picks.items():
        if k not in answers:
            assert k not in won.get(m, {})
            continue
        got = won[m][k]
        if option not in answers[k]:
            assert got == 0
            continue
        assert BASE <= got < BASE + BOLD or got == BASE  # a right guess earns something, never BOLD whole
        for (m2, k2), other in picks.items():  # a right guess fewer made earns at least as much
            same = sum(1 for (_, kk), oo in picks.items() if kk == k and oo == option)
            theirs = sum(1 for (_, kk), oo in picks.items() if kk == k2 and oo == other)
            if k2 == k and other in answers[k] and theirs > same:
                assert got >= won[m2][k2]


def test_a_move_reads_back_from_the_journal_as_itself() -> None:
    moves = [
        Join("Zoe", "t"),
        Open(1, 2, "Ana"),
        Open(1, 2, None),
        Pick(0, "first", "Bo"),
        Close(("Ana", "Bo")),
        Resolve({"first": ("Bo",), "worst": ("Ana", "Bo")}),
        Void(),
        Settings(False, 50),
        Settings(True, None),
        book_of.Offer(0, True),
        book_of.Seated(0),
    ]
    for move in moves:
        assert from_dict(to_dict(move)) == move
        assert to_dict(move)["t"] == "audience"


def test_no_view_holds_a_token() -> None:
    book = settle(joined(Book(), "Zoe", "Max"), lobby())
    book = apply(book, check_pick(book, lobby(), 0, "first", "Bo"))
    seen = repr(public(book, lobby(), False)) + repr(member(book, 0)) + repr(member(book, 1))
    assert "token-" not in seen


# -- Real games on the engine, the audience predicting at random -----------------------------------------------

VARIANTS = default_variants()
CROWD = ("Zoe", "Max", "Lu", "Ike", "Ugo")


class Night(RuleBasedStateMachine):
    """A game played by random legal commands (and the host dealing each next hand, and new games), with members
    joining and picking at random; the audience reads only the public table (`table_view`, as the room sends it)."""

    @initialize(seed=st.integers(0, 10_000), players=st.integers(2, 5), turns=st.booleans())
    def start(self, seed: int, players: int, turns: bool) -> None:
        self.variant = VARIANTS["classic" if turns else "party"]
        self.seed, self.players, self.games = seed, players, 0
        self.names = tuple(f"P{i}" for i in range(players))
        self.game = None
        self.book = Book()
        self.journal: list[dict] = []
        self.totals_seen: list[tuple[int, ...]] = []
        self.observe()

    def table(self) -> dict:
        game = None if self.game is None else table_view(self.game)
        return {"room": {"seats": [{"name": n} for n in self.names]}, "game": game}

    def facts(self) -> Facts:
        return facts_of(self.table(), self.games)

    def observe(self) -> None:
        facts = self.facts()
        before = self.book.round
        for move in due(self.book, facts):
            self.journal.append(to_dict(move))
            self.book = apply(self.book, move)
            if isinstance(move, Resolve):  # each answer is what the public table said
                if "first" in move.answers:
                    assert move.answers["first"] == (facts.first,)
                assert before is not None and before.status in (OPEN, CLOSED)
        if self.book.round is not None and self.book.round.status == OPEN and facts.playing:
            assert not facts.begun  # never open once the hand has shown more than its deal
            assert self.book.round.key == (facts.game, facts.hand)

    @rule()
    def deal(self) -> None:
        if self.game is None or self.game.over:
            self.game, _ = engine.new_game(self.variant, self.players, self.seed + self.games)
            self.games += 1
        elif self.game.hand.phase.value == "scored":
            from partyrummy.phones.commands import Call

            self.game, _ = engine.apply(self.game, Call())
        self.observe()

    @precondition(lambda self: self.game is not None and not self.game.over)
    @rule(data=st.data(), moves=st.integers(1, 30))
    def play(self, data, moves: int) -> None:
        for _ in range(moves):
            legal = legal_commands(self.game) if not self.game.over else []
            if not legal or self.game.hand.phase.value == "scored":
                break
            self.game, _ = engine.apply(self.game, data.draw(st.sampled_from(legal)))
            self.observe()
        self.totals_seen.append(tuple(self.game.totals))

    @precondition(lambda self: self.game is not None and not self.game.over)
    @rule(cycles=st.integers(1, 40))
    def bots(self, cycles: int) -> None:
        """Easy bots play on (a Match! comes within a few cycles), each command seen by the audience."""
        from partyrummy.phones.bots import Bot, bot_move
        from partyrummy.phones.commands import AutoPlay, Call

        bot = Bot("easy")
        for _ in range(cycles * (self.players + 1)):
            hand = self.game.hand
            if self.game.over or hand.phase.value == "scored":
                break
            moves = [m for s in range(hand.players) if (m := bot_move(hand, s, bot)) is not None]
            command = moves[0] if moves else (AutoPlay(hand.slow_seats()[0]) if hand.slow_seats() else Call())
            self.game, _ = engine.apply(self.game, command)
            self.observe()

    @rule(name=st.sampled_from(CROWD))
    def join(self, name: str) -> None:
        if any(m.name == name for m in self.book.members):
            return
        move = Join(name, f"token-{name}")
        self.journal.append(to_dict(move))
        self.book = apply(self.book, move)

    @precondition(lambda self: self.book.members)
    @rule(data=st.data(), key=st.sampled_from(["first", "under", "worst", "nonsense"]))
    def pick(self, data, key: str) -> None:
        facts = self.facts()
        who = data.draw(st.integers(0, len(self.book.members) - 1))
        option = data.draw(st.sampled_from([*self.names, YES, NO, "nobody"]))
        before = self.book
        r = self.book.round
        allowed = r is not None and r.status == OPEN and key != "nonsense"
        try:
            move = check_pick(self.book, facts, who, key, option)
        except RummyError:
            assert self.book == before
            return
        assert allowed and not (facts.playing and facts.begun)
        self.journal.append(to_dict(move))
        self.book = apply(self.book, move)

    @rule(on=st.booleans())
    def switch(self, on: bool) -> None:
        before = self.book.round
        move = Settings(on, None)
        self.journal.append(to_dict(move))
        self.book = apply(self.book, move)
        self.observe()
        if before is not None:  # the switch, either way, keeps the round under way and every guess in it
            assert self.book.round == before
        elif not on:
            assert self.book.round is None  # off opens nothing

    @invariant()
    def replays(self) -> None:
        book = Book()
        for event in self.journal:
            book = apply(book, from_dict(event))
        assert book == self.book
        assert len(self.book.points) == len(self.book.members) and min(self.book.points, default=0) >= 0

    @invariant()
    def deterministic(self) -> None:
        facts = self.facts()
        assert list(due(self.book, facts)) == list(due(self.book, facts))


Night.TestCase.settings = settings(max_examples=60, stateful_step_count=40, deadline=None)
test_a_night_of_predictions = Night.TestCase
