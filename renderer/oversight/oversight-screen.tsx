// Oversight: Stop / Resume, the MCP clients connected, the agent's plan, a message for the agent, and every step as it
// happens.
import { ClientsCard } from './clients-card.js';
import { InterjectBox } from './interject-box.js';
import { PlanCard } from './plan-card.js';
import { StepStream } from './step-stream.js';
import { StopControls } from './stop-controls.js';

export function OversightScreen() {
  return (
    <div className="screen">
      <h1>Oversight</h1>
      <StopControls />
      <ClientsCard />
      <PlanCard />
      <InterjectBox />
      <StepStream />
    </div>
  );
}
