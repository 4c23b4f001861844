//! One or more hand-worked examples for every numbered rule of
//! `docs/rules.md`, each test named after its rule. The positions were
//! worked out by hand from the rule text; the comments show the working.

use mancala_rules::{
    AlManqala, Bohnenspiel, BohnenspielHemprich, Bosh, BoshMatch, DjenonAbe, EndReason, GameRecord,
    IllegalReason, MatchEnd, Move, Partie, Position, Rules, Side, Status,
};

fn pos<R: Rules>(s: &str) -> Position<R> {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// Plays `pit` from `from` and returns the position reached, written.
fn after<R: Rules>(from: &str, pit: u8) -> String {
    pos::<R>(from).play(Move::from_pit(pit)).to_string()
}

fn legal<R: Rules>(s: &str) -> Vec<u8> {
    pos::<R>(s).legal_moves().pits()
}

fn why_illegal<R: Rules>(s: &str, pit: u8) -> IllegalReason {
    pos::<R>(s)
        .try_play(Move::from_pit(pit))
        .expect_err("the move should be illegal")
        .reason
}

// ---------------------------------------------------------------- common

#[test]
fn common_south_moves_first_and_pits_are_numbered_counter_clockwise() {
    let start = Position::<Bohnenspiel>::start();
    assert_eq!(start.side_to_move(), Side::South);
    assert_eq!(start.legal_moves().pits(), vec![1, 2, 3, 4, 5, 6]);
    let north = start.play(Move::from_pit(1));
    assert_eq!(north.legal_moves().pits(), vec![7, 8, 9, 10, 11, 12]);
}

#[test]
fn common_rules_md_example_south_plays_3() {
    // docs/rules.md: pits 4-6 and 7-9 get a seed each, the last lands in pit 9
    // making 7: no capture.
    assert_eq!(
        after::<Bohnenspiel>("bohnenspiel 6,6,6,6,6,6/6,6,6,6,6,6 S 0-0", 3),
        "bohnenspiel 6,6,0,7,7,7/7,7,7,6,6,6 N 0-0"
    );
}

#[test]
fn common_origin_is_not_skipped() {
    // 13 seeds from pit 1: pits 2..12 get one (11), pit 1 gets the 12th,
    // pit 2 the 13th, and the last seed makes 3 there: no capture.
    assert_eq!(
        after::<Bohnenspiel>("bohnenspiel 13,1,1,1,1,1/1,1,1,1,1,1 S 0-48", 1),
        "bohnenspiel 1,3,2,2,2,2/2,2,2,2,2,2 N 0-48"
    );
}

#[test]
fn common_moves_only_from_own_non_empty_pits() {
    let s = "bohnenspiel 0,6,6,6,6,6/6,6,6,6,6,6 S 6-0";
    assert_eq!(why_illegal::<Bohnenspiel>(s, 1), IllegalReason::EmptyPit);
    assert_eq!(why_illegal::<Bohnenspiel>(s, 7), IllegalReason::NotOwnPit);
    assert_eq!(why_illegal::<Bohnenspiel>(s, 13), IllegalReason::NoSuchPit);
    assert_eq!(why_illegal::<Bohnenspiel>(s, 0), IllegalReason::NoSuchPit);
}

#[test]
fn common_cycle_third_occurrence_splits_the_board() {
    // One seed each: South's walks 1..6 then into North's row, North's
    // walks 7..12 then into South's row; after 12 plies the start position
    // is back. Its third occurrence (ply 24) ends the game, and the two
    // seeds on the board are split 1-1.
    let start = pos::<Bohnenspiel>("bohnenspiel 1,0,0,0,0,0/1,0,0,0,0,0 S 35-35");
    let lap = [1, 7, 2, 8, 3, 9, 4, 10, 5, 11, 6, 12];
    let mut game = GameRecord::new(start);
    for (i, &pit) in lap.iter().chain(lap.iter()).enumerate() {
        assert_eq!(game.status(), Status::Ongoing, "ply {i}");
        game.play(Move::from_pit(pit)).unwrap();
    }
    assert_eq!(game.current(), start);
    assert_eq!(game.occurrences(), 3);
    assert_eq!(game.end_reason(), Some(EndReason::Repetition));
    assert_eq!(game.status(), Status::Over([36, 36]));
    assert!(game.legal_moves().is_empty());
}

#[test]
fn common_cycle_odd_seed_goes_to_the_player_to_move() {
    let p = pos::<Bohnenspiel>("bohnenspiel 1,0,0,0,0,0/1,1,0,0,0,0 S 34-35");
    assert_eq!(p.cycle_totals(), [36, 36]);
    let p = pos::<Bohnenspiel>("bohnenspiel 1,0,0,0,0,0/1,1,0,0,0,0 N 34-35");
    assert_eq!(p.cycle_totals(), [35, 37]);
}

#[test]
fn common_endless_move_is_not_legal() {
    // Bosh, only pits 5 and 10 open: 5 holds 2, 10 holds 1. Sowing 5: 10
    // gets 2, 5 gets 1; the next open pit (10) holds 2: lift, sow 5 (2) and
    // 10 (1); the next (5) holds 2: lift, sow 10 (2), 5 (1) — the state of
    // the first relay again, for ever. South has no other move, so the
    // round ends and North takes the 3 stones on the board.
    let s = "bosh x,x,x,x,2/x,x,x,x,1 S 20-17";
    assert_eq!(Bosh::sow(&pos::<Bosh>(s), 4), None);
    assert!(legal::<Bosh>(s).is_empty());
    assert_eq!(pos::<Bosh>(s).status(), Status::Over([20, 20]));
}

#[test]
fn common_match_adjudication_cap_is_scored_as_a_cycle() {
    let mut game = GameRecord::new(pos::<Bohnenspiel>(
        "bohnenspiel 1,0,0,0,0,0/1,1,0,0,0,0 S 34-35",
    ));
    game.adjudicate();
    assert_eq!(game.end_reason(), Some(EndReason::PlyCap));
    assert_eq!(game.status(), Status::Over([36, 36]));
}

// ---------------------------------------------------------- bohnenspiel

#[test]
fn bohnenspiel_1_sowing_is_a_single_lap() {
    // 2 seeds from pit 11: pits 12 and 1; pit 1 had 6, now 7: no capture.
    assert_eq!(
        after::<Bohnenspiel>("bohnenspiel 6,6,0,7,7,7/7,7,7,6,2,10 N 0-0", 11),
        "bohnenspiel 7,6,0,7,7,7/7,7,7,6,0,11 S 0-0"
    );
}

#[test]
fn bohnenspiel_2_capture_in_own_row() {
    // Pit 1 (2 seeds): pit 2 (3 -> 4) and pit 3 (1 -> 2). Pit 3 holds 2:
    // taken, then pit 2 (4): taken, then pit 1 (0): the chain stops.
    assert_eq!(
        after::<Bohnenspiel>("bohnenspiel 2,3,1,0,0,0/1,0,0,0,0,0 S 30-35", 1),
        "bohnenspiel 0,0,0,0,0,0/1,0,0,0,0,0 N 36-35"
    );
}

#[test]
fn bohnenspiel_2_chain_crosses_rows() {
    // Pit 5 (3 seeds): 6 (1 -> 2), 7 (3 -> 4), 8 (5 -> 6). Taken: 8, 7, 6
    // (12 seeds); pit 5 is empty and stops the chain.
    assert_eq!(
        after::<Bohnenspiel>("bohnenspiel 0,0,0,0,3,1/3,5,0,0,0,1 S 30-29", 5),
        "bohnenspiel 0,0,0,0,0,0/0,0,0,0,0,1 N 42-29"
    );
}

#[test]
fn bohnenspiel_2_chain_stops_at_an_odd_pit() {
    // As above but pit 6 becomes 3: only 8 and 7 are taken.
    assert_eq!(
        after::<Bohnenspiel>("bohnenspiel 0,0,0,0,3,2/3,5,0,0,0,1 S 30-28", 5),
        "bohnenspiel 0,0,0,0,0,3/0,0,0,0,0,1 N 40-28"
    );
}

#[test]
fn bohnenspiel_2_no_capture_above_six() {
    // The last seed makes 8 in pit 7: even, but more than 6.
    assert_eq!(
        after::<Bohnenspiel>("bohnenspiel 0,0,0,0,0,1/7,0,0,0,0,1 S 30-33", 6),
        "bohnenspiel 0,0,0,0,0,0/8,0,0,0,0,1 N 30-33"
    );
}

#[test]
fn bohnenspiel_2_chain_goes_round_the_board() {
    // Pit 6 (8 seeds): 7..12 and 1, 2. Last in pit 2 (1 -> 2). Backwards:
    // 2 (2), 1 (4), 12 (6), 11 (2) taken = 14; pit 10 holds 3: stop.
    assert_eq!(
        after::<Bohnenspiel>("bohnenspiel 3,1,0,0,0,8/0,0,0,2,1,5 S 26-26", 6),
        "bohnenspiel 0,0,0,0,0,0/1,1,1,3,0,0 N 40-26"
    );
}

#[test]
fn bohnenspiel_2_chain_never_takes_the_landing_pit_twice() {
    // 24 seeds from pit 1: two full laps, every pit (pit 1 included) holds
    // 2 and the last seed lands in pit 1. The chain takes all 12 pits once
    // (24 seeds) and stops.
    let next =
        pos::<Bohnenspiel>("bohnenspiel 24,0,0,0,0,0/0,0,0,0,0,0 S 0-48").play(Move::from_pit(1));
    assert_eq!(
        next.to_string(),
        "bohnenspiel 0,0,0,0,0,0/0,0,0,0,0,0 N 24-48"
    );
    assert_eq!(next.status(), Status::Over([24, 48]));
}

#[test]
fn bohnenspiel_3_empty_row_ends_the_game_and_the_other_takes_the_board() {
    let s = "bohnenspiel 0,0,0,0,0,0/1,2,0,0,0,0 S 30-39";
    assert!(legal::<Bohnenspiel>(s).is_empty());
    assert_eq!(pos::<Bohnenspiel>(s).status(), Status::Over([30, 42]));
    // South's capture empties North's row: North is to move with nothing,
    // and South, who moved last, takes the 3 seeds left in pit 1.
    let next =
        pos::<Bohnenspiel>("bohnenspiel 3,0,0,0,0,1/1,0,0,0,0,0 S 30-37").play(Move::from_pit(6));
    assert_eq!(
        next.to_string(),
        "bohnenspiel 3,0,0,0,0,0/0,0,0,0,0,0 N 32-37"
    );
    assert_eq!(next.status(), Status::Over([35, 37]));
}

#[test]
fn bohnenspiel_4_more_than_36_wins_and_36_all_is_a_draw() {
    use mancala_rules::GameId;
    assert_eq!(GameId::Bohnenspiel.winner([37, 35]), Some(Side::South));
    assert_eq!(GameId::Bohnenspiel.winner([30, 42]), Some(Side::North));
    assert_eq!(GameId::Bohnenspiel.winner([36, 36]), None);
}

#[test]
fn bohnenspiel_5_partie_to_100_with_alternating_starter() {
    let mut partie = Partie::<Bohnenspiel>::new();
    assert_eq!(partie.next_start().side_to_move(), Side::South);
    assert_eq!(partie.record([50, 22]), None);
    assert_eq!(partie.next_start().side_to_move(), Side::North);
    assert_eq!(partie.record([40, 32]), None);
    assert_eq!(partie.next_start().side_to_move(), Side::South);
    // 90-54, then 102-114: both pass 100 in the same round; the higher wins.
    assert_eq!(partie.record([12, 60]), Some(Side::North));
    let mut partie = Partie::<Bohnenspiel>::new();
    partie.record([60, 12]);
    assert_eq!(partie.record([42, 30]), Some(Side::South));
}

#[test]
fn bohnenspiel_5_partie_equal_totals_past_100_play_one_more_round() {
    let mut partie = Partie::<Bohnenspiel>::new();
    partie.record([36, 36]);
    partie.record([36, 36]);
    // 108 - 108: both past 100, equal: one more round.
    assert_eq!(partie.record([36, 36]), None);
    assert_eq!(partie.winner(), None);
    assert_eq!(partie.record([38, 34]), Some(Side::South));
}

#[test]
fn bohnenspiel_6_hemprich_pass_is_the_only_move() {
    let s = "bohnenspiel-hemprich 0,0,0,0,0,0/1,2,0,0,0,0 S 30-39";
    assert_eq!(legal::<BohnenspielHemprich>(s), vec![0]);
    let p = pos::<BohnenspielHemprich>(s);
    assert_eq!(p.status(), Status::Ongoing);
    assert_eq!(
        p.play(Move::PASS).to_string(),
        "bohnenspiel-hemprich 0,0,0,0,0,0/1,2,0,0,0,0 N 30-39"
    );
    assert_eq!(
        why_illegal::<BohnenspielHemprich>(s, 1),
        IllegalReason::MustPass
    );
    // No pass while the row holds seeds.
    let p = Position::<BohnenspielHemprich>::start();
    assert_eq!(
        p.try_play(Move::PASS).unwrap_err().reason,
        IllegalReason::PassNotAllowed
    );
}

#[test]
fn bohnenspiel_6_hemprich_ends_only_when_no_seed_is_left() {
    // South's capture takes the last two seeds: the board is empty.
    let next = pos::<BohnenspielHemprich>("bohnenspiel-hemprich 0,0,0,0,0,1/1,0,0,0,0,0 S 30-40")
        .play(Move::from_pit(6));
    assert_eq!(
        next.to_string(),
        "bohnenspiel-hemprich 0,0,0,0,0,0/0,0,0,0,0,0 N 32-40"
    );
    assert_eq!(next.status(), Status::Over([32, 40]));
}

// ------------------------------------------------------------ al-manqala

#[test]
fn al_manqala_1_sowing_is_a_single_lap() {
    assert_eq!(
        after::<AlManqala>("al-manqala 7,7,7,7,7,7,7/7,7,7,7,7,7,7 S 0-0", 1),
        "al-manqala 0,8,8,8,8,8,8/8,7,7,7,7,7,7 N 0-0"
    );
}

#[test]
fn al_manqala_2_must_feed_an_empty_row() {
    // North's row is empty. Pit 6 (1 seed) lands in pit 7 (3 -> 4) and
    // captures it: North stays empty. Pit 7 (3) feeds pits 8-10.
    let s = "al-manqala 0,0,0,0,0,1,3/0,0,0,0,0,0,0 S 50-44";
    assert_eq!(legal::<AlManqala>(s), vec![7]);
    assert_eq!(why_illegal::<AlManqala>(s, 6), IllegalReason::MustFeed);
}

#[test]
fn al_manqala_2_feeding_counts_captures() {
    // Pit 7 (21 seeds) sows 8-14, 1-7, 8-14: North's pits hold 2 each and
    // the last seed lands in 14; the chain 14..8 takes them all (pit 7 holds
    // 1 and stops it). That leaves North empty, so only pit 6 feeds.
    let s = "al-manqala 0,0,0,0,0,2,21/0,0,0,0,0,0,0 S 40-35";
    assert_eq!(legal::<AlManqala>(s), vec![6]);
}

#[test]
fn al_manqala_3_captures_2_and_4_across_rows_but_not_6() {
    // Pit 6 (2 seeds): 7 (3 -> 4) and 8 (1 -> 2): 8 and 7 taken, pit 6 stops.
    assert_eq!(
        after::<AlManqala>("al-manqala 0,0,0,0,0,2,3/1,0,0,0,0,0,1 S 45-46", 6),
        "al-manqala 0,0,0,0,0,0,0/0,0,0,0,0,0,1 N 51-46"
    );
    // Pit 7 (2 seeds): 8 (1 -> 2), 9 (5 -> 6). 6 is not taken in
    // Al-manqala, so nothing is.
    assert_eq!(
        after::<AlManqala>("al-manqala 0,0,0,0,0,0,2/1,5,0,0,0,0,1 S 45-44", 7),
        "al-manqala 0,0,0,0,0,0,0/2,6,0,0,0,0,1 N 45-44"
    );
}

#[test]
fn al_manqala_4_no_feeding_move_ends_and_the_starved_take_all() {
    // Pit 7 is the only move and it cannot leave North a seed (see
    // al_manqala_2_feeding_counts_captures): the game ends at once and
    // North takes the 21 seeds.
    let s = "al-manqala 0,0,0,0,0,0,21/0,0,0,0,0,0,0 S 40-37";
    assert!(legal::<AlManqala>(s).is_empty());
    assert_eq!(pos::<AlManqala>(s).status(), Status::Over([40, 58]));
}

#[test]
fn al_manqala_4_empty_row_to_move_each_takes_their_own() {
    let s = "al-manqala 0,0,0,0,0,0,0/0,0,3,0,0,0,0 S 50-45";
    assert!(legal::<AlManqala>(s).is_empty());
    assert_eq!(pos::<AlManqala>(s).status(), Status::Over([50, 48]));
}

#[test]
fn al_manqala_5_fifty_wins_and_49_all_is_a_draw() {
    use mancala_rules::GameId;
    assert_eq!(GameId::AlManqala.winner([50, 48]), Some(Side::South));
    assert_eq!(GameId::AlManqala.winner([49, 49]), None);
    assert_eq!(GameId::AlManqala.winner([40, 58]), Some(Side::North));
}

// ------------------------------------------------------------------ bosh

#[test]
fn bosh_1_relay_sowing() {
    // Pit 1 (4): 2-5 get one each, the last in 5. Next pit 6 holds 4: lift,
    // sow 7-10. Next pit 1 is empty: the move ends, and the pit after it
    // (2, holding 5) is captured.
    assert_eq!(
        after::<Bosh>("bosh 4,4,4,4,4/4,4,4,4,4 S 0-0", 1),
        "bosh 0,0,5,5,5/0,5,5,5,5 N 5-0"
    );
}

#[test]
fn bosh_2_capture_after_the_empty_pit() {
    // Pit 5 (1) drops in 6. Pit 7 is empty: the move ends; pit 8 (3) is taken.
    assert_eq!(
        after::<Bosh>("bosh 0,0,0,0,1/0,0,3,0,2 S 17-17", 5),
        "bosh 0,0,0,0,0/1,0,0,0,2 N 20-17"
    );
}

#[test]
fn bosh_2_two_empty_pits_capture_nothing() {
    assert_eq!(
        after::<Bosh>("bosh 0,0,0,0,1/0,0,0,3,2 S 17-17", 5),
        "bosh 0,0,0,0,0/1,0,0,3,2 N 17-17"
    );
}

#[test]
fn bosh_3_round_ends_when_the_mover_has_no_stones() {
    let s = "bosh 0,0,0,0,0/1,0,0,3,2 S 17-17";
    assert!(legal::<Bosh>(s).is_empty());
    assert_eq!(pos::<Bosh>(s).status(), Status::Over([17, 23]));
}

#[test]
fn bosh_4_capture_skips_closed_pit() {
    // Pits 6 and 9 are closed. Pit 5 (1) skips 6 and drops in 7; the next
    // open pit, 8, is empty: the move ends; the open pit after 8 is 10
    // (9 is closed), and its 3 stones are taken.
    assert_eq!(
        after::<Bosh>("bosh 0,0,0,0,1/x,0,0,x,3 S 20-16", 5),
        "bosh 0,0,0,0,0/x,1,0,x,0 N 23-16"
    );
}

#[test]
fn bosh_4_closed_pits_cannot_be_played() {
    assert_eq!(
        why_illegal::<Bosh>("bosh x,0,0,0,1/x,0,0,x,3 S 20-16", 1),
        IllegalReason::ClosedPit
    );
}

#[test]
fn bosh_4_refill_from_the_right_closes_pits_and_reopens_them() {
    let mut m = BoshMatch::new();
    assert_eq!(
        m.start_round().unwrap().to_string(),
        "bosh 4,4,4,4,4/4,4,4,4,4 S 0-0"
    );
    m.finish_round([31, 9]);
    // South fills 5..1 and keeps 11; North fills 10 and 9 and keeps 1.
    assert_eq!(
        m.start_round().unwrap().to_string(),
        "bosh 4,4,4,4,4/x,x,x,4,4 N 11-1"
    );
    m.finish_round([17, 23]);
    // South fills 5, 4, 3, 2 and keeps 1 (pit 1 closed); North fills all
    // five, keeps 3: pits 6, 7 and 8 are open again.
    assert_eq!(
        m.start_round().unwrap().to_string(),
        "bosh x,4,4,4,4/4,4,4,4,4 S 1-3"
    );
}

#[test]
fn bosh_5_round_starter_alternates() {
    let mut m = BoshMatch::new();
    let mut starters = Vec::new();
    for _ in 0..4 {
        starters.push(m.start_round().unwrap().side_to_move());
        m.finish_round([20, 20]);
    }
    assert_eq!(
        starters,
        vec![Side::South, Side::North, Side::South, Side::North]
    );
}

#[test]
fn bosh_6_match_ends_when_a_pool_cannot_fill_a_pit() {
    let mut m = BoshMatch::new();
    m.finish_round([37, 3]);
    assert_eq!(m.start_round(), Err(MatchEnd { loser: Side::North }));
}

#[test]
fn bosh_7_the_round_is_won_with_the_larger_pool() {
    use mancala_rules::GameId;
    assert_eq!(GameId::Bosh.winner([17, 23]), Some(Side::North));
    assert_eq!(GameId::Bosh.winner([20, 20]), None);
}

// ------------------------------------------------------------ djenon-abe

#[test]
fn djenon_abe_1_relay_ends_in_an_empty_pit() {
    // Pit 6 (1) lands in empty pit 7 (count 1): the move ends.
    assert_eq!(
        after::<DjenonAbe>("djenon-abe 1,0,0,0,0,1/0,0,0,0,0,1 S 20-25", 6),
        "djenon-abe 1,0,0,0,0,0/1,0,0,0,0,1 N 20-25"
    );
}

#[test]
fn djenon_abe_1_relay_lifts_three() {
    // Pit 7 becomes 3: lifted, sown into 8, 9, 10; 10 had none: the end.
    assert_eq!(
        after::<DjenonAbe>("djenon-abe 1,0,0,0,0,1/2,0,0,0,0,1 S 20-23", 6),
        "djenon-abe 1,0,0,0,0,0/0,1,1,1,0,1 N 20-23"
    );
}

#[test]
fn djenon_abe_1_relay_lifts_five_and_captures_two() {
    // Pit 7 becomes 5: lifted, sown 8-12; 12 becomes 2: taken; 11 holds 1.
    assert_eq!(
        after::<DjenonAbe>("djenon-abe 1,0,0,0,0,1/4,0,0,0,0,1 S 20-21", 6),
        "djenon-abe 1,0,0,0,0,0/0,1,1,1,1,0 N 22-21"
    );
}

#[test]
fn djenon_abe_3_capture_chain_crosses_rows() {
    // Pit 5 (2): 6 (1 -> 2) and 7 (3 -> 4). 7 and 6 are taken, 5 stops.
    assert_eq!(
        after::<DjenonAbe>("djenon-abe 1,0,0,0,2,1/3,0,0,0,0,1 S 20-20", 5),
        "djenon-abe 1,0,0,0,0,0/0,0,0,0,0,1 N 26-20"
    );
}

#[test]
fn djenon_abe_2_must_feed_an_empty_row() {
    // Pit 1 (2) ends in pit 3, North still empty; pit 6 feeds pit 7.
    let s = "djenon-abe 2,0,0,0,0,1/0,0,0,0,0,0 S 20-25";
    assert_eq!(legal::<DjenonAbe>(s), vec![6]);
    assert_eq!(why_illegal::<DjenonAbe>(s, 1), IllegalReason::MustFeed);
}

#[test]
fn djenon_abe_4_ends_when_each_player_has_exactly_one_seed() {
    // South's capture leaves one seed in each row: the game is over, each
    // takes their own.
    let next =
        pos::<DjenonAbe>("djenon-abe 1,0,0,0,0,1/1,0,0,0,0,1 S 20-24").play(Move::from_pit(6));
    assert_eq!(
        next.to_string(),
        "djenon-abe 1,0,0,0,0,0/0,0,0,0,0,1 N 22-24"
    );
    assert!(next.legal_moves().is_empty());
    assert_eq!(next.status(), Status::Over([23, 25]));
}

#[test]
fn djenon_abe_5_final_gift() {
    // South cannot feed North's empty row: no legal move. South takes the
    // seed in their row, then gives it to North (the only one with seeds).
    let s = "djenon-abe 1,0,0,0,0,0/0,0,0,0,0,0 S 20-27";
    assert!(legal::<DjenonAbe>(s).is_empty());
    assert_eq!(pos::<DjenonAbe>(s).status(), Status::Over([20, 28]));
    // South to move with an empty row: North takes 3 and gives South one.
    let s = "djenon-abe 0,0,0,0,0,0/0,0,2,0,0,1 S 20-25";
    assert_eq!(pos::<DjenonAbe>(s).status(), Status::Over([21, 27]));
}

#[test]
fn djenon_abe_6_more_captured_seeds_wins() {
    use mancala_rules::GameId;
    assert_eq!(GameId::DjenonAbe.winner([25, 23]), Some(Side::South));
    assert_eq!(GameId::DjenonAbe.winner([24, 24]), None);
}

#[test]
fn djenon_abe_1_endless_relay_is_not_legal() {
    // Found by search; the independent naive mover (tests/naive) agrees in
    // naive_crosscheck.rs.
    let s = "djenon-abe 2,1,5,6,5,4/3,2,1,5,9,3 S 1-1";
    assert_eq!(DjenonAbe::sow(&pos::<DjenonAbe>(s), 2), None);
    assert_eq!(why_illegal::<DjenonAbe>(s, 3), IllegalReason::Endless);
    assert!(!legal::<DjenonAbe>(s).contains(&3));
}

/// Game names are read in any case and written in lower case.
#[test]
fn notation_game_names_in_any_case() {
    let pos: mancala_rules::AnyPosition =
        "Bohnenspiel 6,6,6,6,6,6/6,6,6,6,6,6 S 0-0".parse().unwrap();
    assert_eq!(pos.to_string(), "bohnenspiel 6,6,6,6,6,6/6,6,6,6,6,6 S 0-0");
    assert_eq!(
        "DJENON-ABE".parse::<mancala_rules::GameId>(),
        Ok(mancala_rules::GameId::DjenonAbe)
    );
    assert!("bohnen spiel".parse::<mancala_rules::GameId>().is_err());
}
