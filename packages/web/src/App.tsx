import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { Spinner } from './components/ui.js';
import { PublicLayout } from './layouts/PublicLayout.js';
import { Auth } from './pages/Auth.js';
import { ChangePassword } from './pages/ChangePassword.js';
import { Contact } from './pages/Contact.js';
import { CreateNewGame } from './pages/CreateNewGame.js';
import { EmailConfirmed } from './pages/EmailConfirmed.js';
import { EmailSent } from './pages/EmailSent.js';
import { ForgotPassword } from './pages/ForgotPassword.js';
import { Home } from './pages/Home.js';

// The guides, setup pages and dashboard load on first visit: the first page a visitor opens stays small.
const BlogGodot4 = lazy(() => import('./pages/BlogGodot4.js').then((m) => ({ default: m.BlogGodot4 })));
const CallingHowl = lazy(() => import('./pages/CallingHowl.js').then((m) => ({ default: m.CallingHowl })));
const CSharp = lazy(() => import('./pages/CSharp.js').then((m) => ({ default: m.CSharp })));
const Dashboard = lazy(() => import('./pages/dashboard/Dashboard.js').then((m) => ({ default: m.Dashboard })));
const Download = lazy(() => import('./pages/Download.js').then((m) => ({ default: m.Download })));
const MobileExport = lazy(() => import('./pages/MobileExport.js').then((m) => ({ default: m.MobileExport })));
const PlayerAuth = lazy(() => import('./pages/PlayerAuth.js').then((m) => ({ default: m.PlayerAuth })));
const PlayerData = lazy(() => import('./pages/PlayerData.js').then((m) => ({ default: m.PlayerData })));
const Privacy = lazy(() => import('./pages/Privacy.js').then((m) => ({ default: m.Privacy })));
const Terms = lazy(() => import('./pages/Terms.js').then((m) => ({ default: m.Terms })));
const Troubleshooting = lazy(() => import('./pages/Troubleshooting.js').then((m) => ({ default: m.Troubleshooting })));
const Features = lazy(() => import('./pages/Features.js').then((m) => ({ default: m.Features })));
const LeaderboardPage = lazy(() => import('./pages/Features.js').then((m) => ({ default: m.LeaderboardPage })));

/** Every route of the site. Unknown paths show the features home. */
export function App() {
  return (
    <Suspense fallback={<Spinner />}>
      <Routes>
        <Route path="/dashboard/*" element={<Dashboard />} />
        <Route element={<PublicLayout />}>
          <Route index element={<Home />} />
          <Route path="/homepage.html" element={<Home />} />
          <Route path="/features" element={<Features />} />
          <Route path="/leaderboard" element={<LeaderboardPage />} />
          <Route path="/auth" element={<Auth />} />
          <Route path="/forgotPassword" element={<ForgotPassword />} />
          <Route path="/emailSent" element={<EmailSent />} />
          <Route path="/terms" element={<Terms />} />
          <Route path="/privacy" element={<Privacy />} />
          <Route path="/contact" element={<Contact />} />
          <Route path="/emailConfirmed" element={<EmailConfirmed />} />
          <Route path="/changepwd" element={<ChangePassword />} />
          <Route path="/download" element={<Download />} />
          <Route path="/troubleshooting" element={<Troubleshooting />} />
          <Route path="/callingHowl" element={<CallingHowl />} />
          <Route path="/cSharp" element={<CSharp />} />
          <Route path="/csharp" element={<CSharp />} />
          <Route path="/mobileExport" element={<MobileExport />} />
          <Route path="/playerauth" element={<PlayerAuth />} />
          <Route path="/playerdata" element={<PlayerData />} />
          <Route path="/createNewGame" element={<CreateNewGame />} />
          <Route path="/blog/godot-4" element={<BlogGodot4 />} />
          <Route path="*" element={<Home />} />
        </Route>
      </Routes>
    </Suspense>
  );
}
