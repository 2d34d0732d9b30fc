import { Route, Routes } from 'react-router';
import { DashboardLayout } from '../../layouts/DashboardLayout.js';
import { GamePage } from './GamePage.js';
import { PlayersPage } from './PlayersPage.js';
import { ScoresPage } from './ScoresPage.js';

/** `/dashboard/*`: the current game, its players and its scores. */
export function Dashboard() {
  return (
    <Routes>
      <Route element={<DashboardLayout />}>
        <Route index element={<GamePage />} />
        <Route path="game" element={<GamePage />} />
        <Route path="players" element={<PlayersPage />} />
        <Route path="scores" element={<ScoresPage />} />
        <Route
          path="multiplayer"
          element={
            <div className="space-y-4">
              <h1>Multiplayer</h1>
              <p className="text-lg text-slate-600">Coming soon!</p>
            </div>
          }
        />
        <Route path="*" element={<GamePage />} />
      </Route>
    </Routes>
  );
}
