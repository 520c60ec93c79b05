//! The vector env against the same games stepped one by one.

use super::*;
use crate::dog::Dog;
use crate::schotten_totten::SchottenTotten;
use crate::the_game::TheGame;

/// Owned buffers for `n` envs.
struct Owned {
    o: Vec<f32>,
    m: Vec<u8>,
    b: Vec<u8>,
    l: Vec<i64>,
    c: Vec<i64>,
    r: Vec<f32>,
    t: Vec<bool>,
    u: Vec<bool>,
    s: Vec<i64>,
}

impl Owned {
    fn new<G: Game>(env: &VectorEnv<G>) -> Owned
    where
        G::State: Heuristic,
    {
        let (g, n) = (env.game(), env.num_envs());
        Owned {
            o: vec![0.0; n * g.observation_tensor_len()],
            m: vec![0; n * g.num_distinct_actions()],
            b: vec![0; n * mask_bits_len(g.num_distinct_actions())],
            l: vec![0; n * g.num_distinct_actions()],
            c: vec![0; n],
            r: vec![0.0; n * env.reward_width()],
            t: vec![false; n],
            u: vec![false; n],
            s: vec![0; n],
        }
    }
    /// Every buffer, or without `masks` (and the mask bits) / `lists` those left out.
    fn buffers(&mut self, masks: bool, lists: bool) -> Buffers<'_> {
        Buffers {
            observations: &mut self.o,
            masks: masks.then_some(&mut self.m[..]),
            mask_bits: masks.then_some(&mut self.b[..]),
            legal_actions: lists.then_some(&mut self.l[..]),
            legal_counts: lists.then_some(&mut self.c[..]),
            rewards: &mut self.r,
            terminations: &mut self.t,
            truncations: &mut self.u,
            seats: &mut self.s,
        }
    }
}

/// Steps the envs of `game` by each one's legal action `(step + i) % count` (read
/// from the lists) on 1 and 2 threads, with every buffer and with the optional ones
/// left out: the same games as the seeded games stepped one by one, new episodes
/// from `episode_seed`; masks and lists are the state's legal actions, the lists'
/// tails -1; buffers left out are not touched.
fn the_envs_are_the_seeded_games<G: Game + Copy>(game: G, steps: usize)
where
    G::State: Heuristic,
{
    let n = 5;
    let width = game.num_distinct_actions();
    let len = game.observation_tensor_len();
    for (threads, masks, lists) in [
        (1, true, true),
        (2, true, true),
        (2, false, true),
        (1, true, false),
    ] {
        let mut env = VectorEnv::new(game, n, 3, None, Some(threads)).unwrap();
        let mut out = Owned::new(&env);
        out.l.fill(7); // not zero: the reset must write every entry of a row.
        let mut states: Vec<_> = (0..n)
            .map(|i| game.new_initial_state(episode_seed(3, i as u64, 0)))
            .collect();
        let mut episodes = vec![0; n];
        env.reset(None, out.buffers(masks, lists)).unwrap();
        for step in 0..steps {
            for (i, state) in states.iter().enumerate() {
                assert_eq!(env.state(i).unwrap().0.to_snapshot(), state.to_snapshot());
                let seat = state.current_player();
                assert_eq!(out.s[i], seat.unwrap() as i64);
                assert_eq!(
                    out.o[i * len..(i + 1) * len],
                    state.observation_tensor(seat).unwrap()[..]
                );
                let legal: Vec<i64> = state.legal_actions().into_iter().map(i64::from).collect();
                let mask: Vec<u8> = (0..width as u32)
                    .map(|a| u8::from(legal.contains(&a.into())))
                    .collect();
                if masks {
                    assert_eq!(out.m[i * width..(i + 1) * width], mask[..]);
                    let row = mask_bits_len(width);
                    let bits = &out.b[i * row..(i + 1) * row];
                    for bit in 0..8 * row {
                        let set = bits[bit / 8] >> (bit % 8) & 1 == 1;
                        assert_eq!(set, bit < width && mask[bit] == 1, "bit {bit} of env {i}");
                    }
                }
                if lists {
                    let row = &out.l[i * width..(i + 1) * width];
                    assert_eq!(out.c[i], legal.len() as i64);
                    assert_eq!(row[..legal.len()], legal[..]);
                    assert!(
                        row[legal.len()..].iter().all(|&x| x == -1),
                        "the list's tail is -1"
                    );
                }
            }
            let actions: Vec<i64> = states
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    let legal = s.legal_actions();
                    i64::from(legal[(step + i) % legal.len()])
                })
                .collect();
            env.step(&actions, out.buffers(masks, lists)).unwrap();
            for i in 0..n {
                states[i].apply_action(actions[i] as Action).unwrap();
                assert_eq!(out.t[i], states[i].is_terminal());
                let rewards: Vec<f32> = states[i].rewards().iter().map(|&r| r as f32).collect();
                assert_eq!(out.r[i * rewards.len()..(i + 1) * rewards.len()], rewards[..]);
                if states[i].is_terminal() {
                    episodes[i] += 1;
                    states[i] = game.new_initial_state(episode_seed(3, i as u64, episodes[i]));
                }
            }
        }
        assert!(episodes.iter().any(|&e| e > 0), "autoreset was reached");
        assert_eq!(
            masks,
            out.m.iter().any(|&x| x != 0),
            "masks written only when asked for"
        );
        assert_eq!(
            masks,
            out.b.iter().any(|&x| x != 0),
            "mask bits written only when asked for"
        );
        assert_eq!(
            lists,
            out.c.iter().any(|&x| x != 0),
            "lists written only when asked for"
        );
        // An illegal action anywhere: refused, nothing moves.
        let before: Vec<_> = (0..n).map(|i| env.state(i).unwrap().0.to_snapshot()).collect();
        let err = env.step(&[-1; 5], out.buffers(masks, lists)).unwrap_err();
        assert!(err.to_string().contains("env 0"), "{err}");
        let mut late = actions_of(&states);
        late[n - 1] = width as i64;
        let err = env.step(&late, out.buffers(masks, lists)).unwrap_err();
        assert!(err.to_string().contains(&format!("env {}", n - 1)), "{err}");
        let after: Vec<_> = (0..n).map(|i| env.state(i).unwrap().0.to_snapshot()).collect();
        assert_eq!(before, after);
    }
}

/// Each state's lowest legal action.
fn actions_of<S: GameState>(states: &[S]) -> Vec<i64> {
    states.iter().map(|s| i64::from(s.legal_actions()[0])).collect()
}

#[test]
fn the_envs_are_the_seeded_games_whatever_the_threads() {
    the_envs_are_the_seeded_games(SchottenTotten::default(), 200);
    the_envs_are_the_seeded_games(TheGame::default(), 100);
    // 1,810 actions: mask rows of 29 words, the last one padded.
    the_envs_are_the_seeded_games(Dog { max_turns: 40 }, 60);
}

#[test]
fn a_buffer_of_the_wrong_length_is_refused() {
    let mut env = VectorEnv::new(SchottenTotten::default(), 3, 0, None, Some(1)).unwrap();
    let mut out = Owned::new(&env);
    out.l.pop();
    let err = env.reset(None, out.buffers(true, true)).unwrap_err();
    assert!(err.to_string().contains("legal_actions"), "{err}");
    let mut out = Owned::new(&env);
    out.b.push(0);
    let err = env.reset(None, out.buffers(true, true)).unwrap_err();
    assert!(err.to_string().contains("mask_bits"), "{err}");
    let mut out = Owned::new(&env);
    let mut b = out.buffers(true, true);
    b.legal_counts = None;
    let err = env.reset(None, b).unwrap_err();
    assert!(err.to_string().contains("both or neither"), "{err}");
}

#[test]
fn blocks_cover_the_envs_with_a_few_tasks_per_thread() {
    assert_eq!(block_len(1024, 2), 32);
    assert_eq!(block_len(5, 2), 8);
    assert_eq!(block_len(100, 1), 8);
    assert_eq!(block_len(1 << 20, 4), 16_384);
}
