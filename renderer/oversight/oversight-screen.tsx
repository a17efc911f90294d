// Oversight: the agent's plan, Stop / Resume, a message for the agent, and every step as it happens.
import { InterjectBox } from './interject-box.js';
import { PlanCard } from './plan-card.js';
import { StepStream } from './step-stream.js';
import { StopControls } from './stop-controls.js';

export function OversightScreen() {
  return (
    <div className="screen">
      <h1>Oversight</h1>
      <StopControls />
      <PlanCard />
      <InterjectBox />
      <StepStream />
    </div>
  );
}
