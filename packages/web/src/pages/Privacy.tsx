import { Link } from 'react-router';
import { LEGAL_UPDATED } from '../components/content/constants.js';
import { DocPage, Section } from '../components/content/DocPage.js';

const SECTIONS = [
  { id: 'summary', title: 'In short' },
  { id: 'what-we-collect', title: 'What we collect' },
  { id: 'players', title: 'Your players' },
  { id: 'how-we-use', title: 'How we use it' },
  { id: 'security', title: 'Encryption and security' },
  { id: 'never-sold', title: 'We never sell data' },
  { id: 'your-rights', title: 'Access, change or delete your data' },
  { id: 'changes', title: 'Changes and contact' },
];

/** Privacy policy (spec §2.9). */
export function Privacy() {
  return (
    <DocPage eyebrow="Legal" title="Privacy policy" lead={<p>Last updated: {LEGAL_UPDATED}</p>} sections={SECTIONS}>
      <Section id="summary" title="In short">
        <ul>
          <li>Your data is encrypted and is never sold.</li>
          <li>If your game uses player accounts, your players' email addresses may be stored.</li>
          <li>You can access, change or delete your data at any time.</li>
        </ul>
      </Section>

      <Section id="what-we-collect" title="What we collect">
        <p>When you create a developer account we store:</p>
        <ul>
          <li>your name, email address and, if you give one, your company;</li>
          <li>your password, only as a one-way hash that nobody can read back;</li>
          <li>your games, their settings and their API keys;</li>
          <li>messages you send us through the contact form, and your newsletter choice.</li>
        </ul>
        <p>
          We also keep the technical records any web service needs, such as request logs and counters for limits, for a
          short time.
        </p>
      </Section>

      <Section id="players" title="Your players">
        <p>
          When your game calls Howl, we store what it sends on behalf of your players: player names, scores, and player
          data. If you use player accounts, we also store your players' passwords as hashes and, when you choose
          registration with email, their email addresses, which are used only to send the confirmation and password
          reset codes of your game. We process this data for you, the developer, and only to run your game's features.
        </p>
      </Section>

      <Section id="how-we-use" title="How we use it">
        <p>
          We use your data to run Howl: to sign you in, to operate your games' leaderboards, player accounts and player
          data, to answer your messages, and to send you the newsletter if you subscribed to it (at most one mail a
          month; you can unsubscribe at any time). We do not use your data or your players' data for advertising.
        </p>
      </Section>

      <Section id="security" title="Encryption and security">
        <p>
          Data is encrypted in transit between games, browsers and Howl, and encrypted at rest where it is stored.
          Access to the servers is restricted, and API keys are compared in constant time and never written to logs.
        </p>
      </Section>

      <Section id="never-sold" title="We never sell data">
        <p>
          We never sell, rent or trade your data or your players' data. We share it only with the providers that host
          and run the service for us, under agreements that keep it confidential, or when the law requires it.
        </p>
      </Section>

      <Section id="your-rights" title="Access, change or delete your data">
        <p>
          You can access, change or delete your data. Your account details, games and settings are on this site; your
          players, their scores and their data are on the dashboard, where you can change or delete them and export
          player data as a file. To delete your account entirely, or for any other request, write to us through the{' '}
          <Link to="/contact">contact page</Link>.
        </p>
        <p>
          Players who want to see, change or delete their data should contact the developer of their game, who can do it
          from the dashboard.
        </p>
      </Section>

      <Section id="changes" title="Changes and contact">
        <p>
          We may update this policy; the date at the top shows the latest change. See also the{' '}
          <Link to="/terms">terms of service</Link>.
        </p>
      </Section>
    </DocPage>
  );
}
