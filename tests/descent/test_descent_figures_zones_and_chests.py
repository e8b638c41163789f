"""Descent's rules on figures, zones and chests (rules data 1.6.0), through the REST API on SQLite and PostgreSQL:
a chest gives exactly what its row lists (L272, L590), the Monkey Kings' line needs both alive (L492), and the cells of
prisoners 9 and 10 stay shut while monsters live in Zone 4 (L396), monster figures carrying the zone the table reports."""

from __future__ import annotations

from tests.kit import session
from tests.kit.descent import act, campaign, in_combat, placed, refused, start


def test_a_chest_whose_row_lists_no_treasure_gives_no_treasure_card(client):
    # L590: "| Gold 1 | 1 curse, 500 coins |" (The Mists of Time): no gold treasure
    sid = start(client, campaign(client, ["tahlia", "aurim"]), "mists-of-time")
    opening = {"type": "open-chest", "chest": "gold-1", "opener": "tahlia", "given_to": {"coins": "tahlia", "curses": ["aurim"]}}
    wrong = refused(client, sid, **opening, treasure={"tahlia": ["Gold treasure 1"]})
    assert wrong["title"] == "The Gold 1 chest of The Mists of Time lists no treasure" and "L272" in wrong["detail"]
    stranger = refused(client, sid, **opening, treasure={"sir-valadir": []})
    assert stranger["title"] == "Sir Valadir is not in the party" and "Aurim and Tahlia" in stranger["detail"]
    opened = act(client, sid, **opening)
    assert session.change(opened, "ChestOpened")["treasure"] == {} and opened["state"]["game"]["heroes"]["tahlia"]["coins"] == 500


def test_the_monkey_kings_line_is_not_struck_once_a_monkey_king_is_killed(client):
    # L492: "a straight line ... between the two Monkey Kings (assuming both are alive)"
    sid = in_combat(client, quest="hall-of-the-monkey-kings")
    king = {"monster": "blood ape", "named": "monkey-king", "wounds": 5, "armor": 1}
    [first] = placed(client, sid, king, source="zone 7 revealed")
    assert refused(client, sid, type="monkey-kings-line", heroes=["tahlia"], face="surge")["title"] == "Only one Monkey King is on the board"
    [second] = placed(client, sid, king, source="zone 7 revealed")
    act(client, sid, type="attack", attacker="tahlia", target=first, attack_type="melee", faces={"red": ["4D 0R", "2D 0R"]})
    killed = refused(client, sid, type="monkey-kings-line", heroes=["aurim"], face="surge")
    assert killed["title"] == f"{first} was killed: the Monkey Kings' line needs both alive" and "L492" in killed["detail"]
    assert second != first


def test_both_monkey_kings_alive_strike_the_line(client):
    sid = in_combat(client, quest="hall-of-the-monkey-kings")
    king = {"monster": "blood ape", "named": "monkey-king", "wounds": 5, "armor": 1}
    placed(client, sid, king, king, source="zone 7 revealed")
    struck = act(client, sid, type="monkey-kings-line", heroes=["tahlia"], face="surge")
    assert struck["state"]["game"]["heroes"]["tahlia"]["curses"] == 1  # L494


def test_cells_9_and_10_stay_shut_while_monsters_live_in_zone_4(client):
    # L396-L398: "When a hero tries to open the cells containing prisoners 9 or 10 and there are still monsters alive
    # in the zone: 'With the battle raging, you have something else to do than open this cell.'"
    sid = in_combat(client, quest="thing-in-the-pit")
    thing, priest = placed(client, sid, {"monster": "chaos beast", "named": "thing-in-the-pit", "wounds": 8, "zone": "zone-4"},
                           {"monster": "dark priest", "wounds": 2, "armor": 0}, source="zone 4 revealed")
    # the priest's zone was not reported: the log cannot tell, so the table is asked, with the body that says it
    asked = refused(client, sid, type="open-cell", cell="cell-9", hero="tahlia")
    assert asked["title"] == f"Say which zone {priest} is in first"
    assert asked["example"] == {"type": "move-monsters", "moves": [{"figure": priest, "zone": "zone-4"}]}
    moved = act(client, sid, type="move-monsters", moves=[{"figure": priest, "zone": "zone-2"}])
    assert moved["state"]["game"]["monsters"][priest]["zone"] == "zone-2"
    assert moved["state"]["game"]["monsters"][thing]["zone"] == "zone-4"
    shut = refused(client, sid, type="open-cell", cell="cell-10", hero="tahlia")
    assert shut["title"] == f"Monsters still live in Zone 4: {thing}" and "L396" in shut["detail"]
    act(client, sid, type="open-cell", cell="cell-1", hero="tahlia")  # a cell of another zone opens
    assert refused(client, sid, type="move-monsters", moves=[{"figure": "tahlia", "zone": "zone-4"}])["title"] == "tahlia is a hero"
    assert refused(client, sid, type="move-monsters", moves=[{"figure": thing, "zone": "Zone 4"}])["status"] == 422
    act(client, sid, type="move-monsters", moves=[{"figure": thing, "zone": "zone-3"}])  # freed, the Thing moves as it wishes (L391)
    opened = act(client, sid, type="open-cell", cell="cell-9", hero="tahlia")
    assert opened["state"]["game"]["prisoners"]["rescued"][-1] == 9
    session.ruled_and_verified(client, sid, "defeat", ruling="the test stops here")
