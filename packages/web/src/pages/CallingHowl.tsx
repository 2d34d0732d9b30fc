import { Link } from 'react-router';
import { EngineSample } from '../components/CodeBlock.js';
import { DocPage, Section, Wide } from '../components/content/DocPage.js';

const SECTIONS = [
  { id: 'how-calls-work', title: 'How calls work' },
  { id: 'awaiting', title: 'Waiting for the answer' },
  { id: 'signals', title: 'Using signals' },
  { id: 'fire-and-forget', title: 'Fire-and-forget calls' },
  { id: 'which-one', title: 'Which one to use' },
];

/** Guide: signals, waiting for answers and fire-and-forget calls. */
export function CallingHowl() {
  return (
    <DocPage
      eyebrow="Guides"
      title="Calling Howl"
      lead={<p>Every call to Howl goes over the network. Here are the three ways to handle its answer in GDScript.</p>}
      sections={SECTIONS}
    >
      <Section id="how-calls-work" title="How calls work">
        <p>
          The Howl plugin is an autoload named <code>Howl</code> with one object per feature: <code>Howl.Scores</code>,{' '}
          <code>Howl.Players</code> and <code>Howl.PlayerData</code>. A call such as{' '}
          <code>Howl.Scores.save_score(player_name, score)</code> sends a request and returns at once; the answer
          arrives a moment later, without freezing your game.
        </p>
        <p>
          The answer is a Dictionary with the fields the call returns (for <code>save_score</code>:{' '}
          <code>score_id</code>, <code>position</code> and <code>kept</code>). When the call failed, it holds an{' '}
          <code>error</code> with a <code>code</code> and a <code>message</code> instead; see{' '}
          <Link to="/troubleshooting">troubleshooting</Link> for the common ones.
        </p>
      </Section>

      <Section id="awaiting" title="Waiting for the answer">
        <p>
          When the next step needs the answer, wait for it inside your function. In Godot 3 that is{' '}
          <code>yield(…, "completed")</code>; in Godot 4 it is <code>await</code>. The function pauses, the rest of the
          game keeps running, and the function resumes with the answer.
        </p>
        <Wide>
          <EngineSample name="await_calls" />
        </Wide>
        <p>
          A function that waits becomes asynchronous itself: whoever calls it and needs it to be finished must wait for
          it too.
        </p>
      </Section>

      <Section id="signals" title="Using signals">
        <p>
          Each feature object also emits a signal when an answer arrives, with the same Dictionary:{' '}
          <code>score_saved</code> and <code>scores_fetched</code> on <code>Howl.Scores</code>,{' '}
          <code>player_logged_in</code> on <code>Howl.Players</code>, <code>player_data_fetched</code> and{' '}
          <code>player_data_saved</code> on <code>Howl.PlayerData</code>, and so on. Signals suit code where the answer
          is handled in another place than the call, such as a leaderboard panel that refreshes whenever any score is
          saved.
        </p>
        <Wide>
          <EngineSample name="signals" />
        </Wide>
      </Section>

      <Section id="fire-and-forget" title="Fire-and-forget calls">
        <p>
          When nothing depends on the answer, call and move on. The request still completes in the background, even if
          you change scenes, because the autoload stays loaded. Errors are written to the log according to your{' '}
          <code>log_level</code>.
        </p>
        <Wide>
          <EngineSample name="fire_and_forget" />
        </Wide>
      </Section>

      <Section id="which-one" title="Which one to use">
        <ul>
          <li>
            <strong>Wait</strong> when the next line needs the result: showing a player's position, logging a player in.
          </li>
          <li>
            <strong>Signals</strong> when several parts of the game react to the same answer.
          </li>
          <li>
            <strong>Fire and forget</strong> for saves nobody waits for: progress, statistics.
          </li>
        </ul>
        <p>
          Writing C#? The same patterns work there too: see <Link to="/cSharp">Howl from C#</Link>.
        </p>
      </Section>
    </DocPage>
  );
}
