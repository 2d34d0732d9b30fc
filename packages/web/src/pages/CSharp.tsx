import { Link } from 'react-router';
import { CodeBlock } from '../components/CodeBlock.js';
import { DocPage, Section } from '../components/content/DocPage.js';

const SECTIONS = [
  { id: 'overview', title: 'How it works' },
  { id: 'reach-the-autoload', title: 'Reach the autoload' },
  { id: 'await', title: 'Wait for an answer' },
  { id: 'signals', title: 'Connect to signals' },
  { id: 'player-data', title: 'Player data from C#' },
  { id: 'tips', title: 'Tips' },
];

const REACH = `using Godot;

public partial class GameOver : Control
{
    private Node _howl;
    private GodotObject _scores;

    public override void _Ready()
    {
        // The autoload is a node at the root of the scene tree.
        _howl = GetNode("/root/Howl");
        _scores = _howl.Get("Scores").AsGodotObject();
    }
}
`;

const AWAIT = `private async void SubmitScore(string playerName, int score)
{
    // Start the call, then wait for the signal that carries its answer.
    _scores.Call("save_score", playerName, score);
    var answer = await ToSignal(_scores, "score_saved");
    var result = answer[0].AsGodotDictionary();

    if (result["error"].VariantType != Variant.Type.Nil)
    {
        var error = result["error"].AsGodotDictionary();
        GD.PushError($"Howl: {error["message"]} ({error["code"]})");
        return;
    }
    GD.Print($"Saved at position {result["position"]}");
}
`;

const SIGNALS = `public override void _Ready()
{
    _howl = GetNode("/root/Howl");
    _scores = _howl.Get("Scores").AsGodotObject();
    _scores.Connect("scores_fetched", Callable.From<Godot.Collections.Dictionary>(OnScoresFetched));
    _scores.Call("get_scores", 10);
}

private void OnScoresFetched(Godot.Collections.Dictionary result)
{
    foreach (var entry in result["scores"].AsGodotArray<Godot.Collections.Dictionary>())
    {
        GD.Print($"{entry["position"]}. {entry["player_name"]}: {entry["score"]}");
    }
}
`;

const PLAYER_DATA = `private async void SaveProgress(string playerName, int level, int gold)
{
    var playerData = _howl.Get("PlayerData").AsGodotObject();
    var data = new Godot.Collections.Dictionary
    {
        { "level", level },
        { "gold", gold },
    };
    // false: merge these keys into the stored document instead of replacing it.
    playerData.Call("save_player_data", playerName, data, false);
    await ToSignal(playerData, "player_data_saved");
}
`;

/** Guide: calling the GDScript plugin from C#. */
export function CSharp() {
  return (
    <DocPage
      eyebrow="Guides"
      title="Howl from C#"
      lead={
        <p>The Howl plugin is written in GDScript, and a C# game can use it through Godot's cross-language calls.</p>
      }
      sections={SECTIONS}
    >
      <Section id="overview" title="How it works">
        <p>
          Install and configure the plugin as described on the <Link to="/download">download page</Link>. The plugin
          then runs as the <code>Howl</code> autoload. From C#, get that node, read its feature objects{' '}
          <code>Scores</code>, <code>Players</code> and <code>PlayerData</code>, and invoke their methods by name with{' '}
          <code>Call</code>. The methods and signals are the same as in GDScript; see{' '}
          <Link to="/callingHowl">Calling Howl</Link>. The samples below use the Godot 4 .NET API.
        </p>
      </Section>

      <Section id="reach-the-autoload" title="Reach the autoload">
        <CodeBlock code={REACH} language="csharp" title="GameOver.cs" />
      </Section>

      <Section id="await" title="Wait for an answer">
        <p>
          GDScript's <code>await</code> does not carry over to C#. Instead, start the call and wait for the feature's
          signal with <code>ToSignal</code>: <code>score_saved</code> for <code>save_score</code>,{' '}
          <code>player_data_saved</code> for <code>save_player_data</code>, and so on. The first value is the answer
          Dictionary.
        </p>
        <CodeBlock code={AWAIT} language="csharp" />
      </Section>

      <Section id="signals" title="Connect to signals">
        <p>
          The feature objects emit a signal with the same Dictionary when an answer arrives. Connect to it by name with{' '}
          <code>Connect</code>.
        </p>
        <CodeBlock code={SIGNALS} language="csharp" />
      </Section>

      <Section id="player-data" title="Player data from C#">
        <p>
          Pass data as a <code>Godot.Collections.Dictionary</code> of numbers, strings, booleans, arrays and nested
          dictionaries. C# types such as <code>Vector2</code> are not JSON: convert them to numbers first.
        </p>
        <CodeBlock code={PLAYER_DATA} language="csharp" />
      </Section>

      <Section id="tips" title="Tips">
        <ul>
          <li>
            Method and signal names are GDScript names in <code>snake_case</code>, passed as strings.
          </li>
          <li>
            Answers are <code>Godot.Collections.Dictionary</code> values of <code>Variant</code>s: convert fields with{' '}
            <code>AsInt32()</code>, <code>AsString()</code> and the like.
          </li>
          <li>
            If a call seems to do nothing, read <Link to="/troubleshooting">troubleshooting</Link>.
          </li>
        </ul>
      </Section>
    </DocPage>
  );
}
