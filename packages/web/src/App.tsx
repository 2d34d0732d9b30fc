import { Route, Routes } from 'react-router';
import { PublicLayout } from './layouts/PublicLayout.js';
import { Auth } from './pages/Auth.js';
import { BlogGodot4 } from './pages/BlogGodot4.js';
import { CallingHowl } from './pages/CallingHowl.js';
import { ChangePassword } from './pages/ChangePassword.js';
import { Contact } from './pages/Contact.js';
import { CreateNewGame } from './pages/CreateNewGame.js';
import { CSharp } from './pages/CSharp.js';
import { Dashboard } from './pages/Dashboard.js';
import { Download } from './pages/Download.js';
import { EmailConfirmed } from './pages/EmailConfirmed.js';
import { EmailSent } from './pages/EmailSent.js';
import { Features, LeaderboardPage } from './pages/Features.js';
import { ForgotPassword } from './pages/ForgotPassword.js';
import { Home } from './pages/Home.js';
import { MobileExport } from './pages/MobileExport.js';
import { PlayerAuth } from './pages/PlayerAuth.js';
import { PlayerData } from './pages/PlayerData.js';
import { Privacy } from './pages/Privacy.js';
import { Terms } from './pages/Terms.js';
import { Troubleshooting } from './pages/Troubleshooting.js';

/** Every route of the site. Unknown paths show the features home. */
export function App() {
  return (
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
  );
}
