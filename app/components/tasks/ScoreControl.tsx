/** The 1–5 agreement score of one topic, with the rubric's description of the hovered, focused or chosen level. */
import * as RadioGroup from "@radix-ui/react-radio-group";
import { useState } from "react";
import { AGREEMENT_RUBRIC } from "../../domain/rubric.ts";
import type { FieldProblem } from "../../task-types/task-view.ts";
import { FieldErrors, problemsAt } from "./FieldErrors.tsx";

/** The 1–5 agreement score with the rubric: the hovered or focused level is described inline, else the chosen one. */
export function ScoreControl({
  idBase,
  topicName,
  score,
  problems,
  path,
  disabled,
  onChange,
}: {
  idBase: string;
  topicName: string;
  score: number | null;
  problems: FieldProblem[];
  path: string;
  disabled: boolean;
  onChange: (score: number) => void;
}) {
  const [previewed, setPreviewed] = useState<number | null>(null);
  const shown = AGREEMENT_RUBRIC.find((r) => r.score === (previewed ?? score));
  const invalid = problemsAt(problems, path).length > 0;
  return (
    <div className="score-control">
      <span id={`${idBase}-label`} className="score-label">
        Agreement on {topicName}
      </span>
      <RadioGroup.Root
        className="choice-row score-row"
        orientation="horizontal"
        aria-labelledby={`${idBase}-label`}
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? `${idBase}-error` : undefined}
        value={score === null ? null : String(score)}
        disabled={disabled}
        onValueChange={(value) => onChange(Number(value))}
        onMouseLeave={() => setPreviewed(null)}
        onBlur={() => setPreviewed(null)}
      >
        {AGREEMENT_RUBRIC.map((level) => (
          <RadioGroup.Item
            key={level.score}
            value={String(level.score)}
            className={`choice score-choice score-${level.score}`}
            aria-label={`${level.score}: ${level.label}`}
            aria-describedby={`${idBase}-${level.score}-desc`}
            title={`${level.score} · ${level.label}: ${level.description}`}
            onMouseEnter={() => setPreviewed(level.score)}
            onFocus={() => setPreviewed(level.score)}
          >
            <span className="score-number">{level.score}</span>
            <span className="score-name">{level.label}</span>
          </RadioGroup.Item>
        ))}
      </RadioGroup.Root>
      <div className="visually-hidden">
        {AGREEMENT_RUBRIC.map((level) => (
          <span key={level.score} id={`${idBase}-${level.score}-desc`}>
            {level.description}
          </span>
        ))}
      </div>
      <p className="rubric-note" data-score={shown?.score ?? ""}>
        {shown ? (
          <>
            <strong>
              {shown.score} · {shown.label}:
            </strong>{" "}
            {shown.description}
          </>
        ) : (
          <span className="muted">Hover over or focus a score to read its rubric.</span>
        )}
      </p>
      <FieldErrors id={`${idBase}-error`} problems={problems} path={path} />
    </div>
  );
}
