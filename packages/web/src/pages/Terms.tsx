import { Link } from 'react-router';
import { LEGAL_UPDATED } from '../components/content/constants.js';
import { DocPage, Section } from '../components/content/DocPage.js';

const SECTIONS = [
  { id: 'agreement', title: 'About these terms' },
  { id: 'accounts', title: 'Free accounts' },
  { id: 'credentials', title: 'Your credentials' },
  { id: 'acceptable-use', title: 'Acceptable use and resale' },
  { id: 'your-content', title: 'Your players and their content' },
  { id: 'termination', title: 'Termination' },
  { id: 'service', title: 'The service as it is' },
  { id: 'changes', title: 'Changes and contact' },
];

/** Terms of service (spec §2.9). */
export function Terms() {
  return (
    <DocPage eyebrow="Legal" title="Terms of service" lead={<p>Last updated: {LEGAL_UPDATED}</p>} sections={SECTIONS}>
      <Section id="agreement" title="About these terms">
        <p>
          These terms apply when you create a developer account on Howl, use the site, or call the Howl backend from a
          game through the Howl plugin. By creating an account or using the service you agree to them. If you use Howl
          on behalf of a studio or company, you agree for it, and "you" means that organisation too.
        </p>
      </Section>

      <Section id="accounts" title="Free accounts">
        <p>
          Developer accounts on Howl are free. You can create games, get an API key and a game id for each, and use
          leaderboards, player accounts and player data without paying. Free use comes with fair limits on requests,
          stored data and mails, which protect the service for everyone; when a game passes them, calls answer with an
          error until the limit resets.
        </p>
        <p>Give accurate details when you sign up and keep your email address current, so we can reach you.</p>
      </Section>

      <Section id="credentials" title="Your credentials">
        <p>
          Your account password, your games' API keys and your player sessions are yours alone. Do not share your
          password or give your account to someone else. An API key is shipped inside your game, so treat it as a
          credential of that game only: do not publish it outside the game, and rotate it from the dashboard if you
          think it has leaked.
        </p>
        <p>You are responsible for what happens under your account and your keys.</p>
      </Section>

      <Section id="acceptable-use" title="Acceptable use and resale">
        <ul>
          <li>Use Howl for your own games, the way the plugin and the documentation describe.</li>
          <li>
            Do not resell, rent or sublicense access to the hosted service, and do not offer it to others as your own
            backend service.
          </li>
          <li>Do not try to reach other developers' games or data, or to get around limits and security checks.</li>
          <li>Do not use Howl to store or send unlawful content, spam or malware.</li>
        </ul>
        <p>
          Howl is open source: you are free to run your own copy under its licence. These terms cover the hosted service
          only.
        </p>
      </Section>

      <Section id="your-content" title="Your players and their content">
        <p>
          Your games send content to Howl on your players' behalf: player names, scores, player data and, if you use
          player accounts, email addresses. You are responsible for that content and for how your game collects it. That
          includes telling your players what you store, getting any consent the law requires, and answering their
          requests about their data. The dashboard lets you view, change and delete players and scores for that.
        </p>
      </Section>

      <Section id="termination" title="Termination">
        <p>
          You can stop using Howl at any time and ask us to delete your account. We may suspend or close an account, or
          disable a game's key, when these terms are broken, when a game harms the service or other developers, or when
          the law requires it. Where we can, we will tell you first and give you a chance to fix the problem.
        </p>
      </Section>

      <Section id="service" title="The service as it is">
        <p>
          We work to keep Howl available and your data safe, but the service is provided as it is, without warranties.
          Keep your own copies of data that matters to your game: the dashboard can export your players' data. To the
          extent the law allows, we are not liable for lost profits or data, or for indirect damages arising from the
          use of Howl.
        </p>
      </Section>

      <Section id="changes" title="Changes and contact">
        <p>
          We may update these terms. The date at the top shows the latest change; if a change matters for you, we will
          tell you by email before it applies. See also the <Link to="/privacy">privacy policy</Link>. Questions? Write
          to us through the <Link to="/contact">contact page</Link>.
        </p>
      </Section>
    </DocPage>
  );
}
