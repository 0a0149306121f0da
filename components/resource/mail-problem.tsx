/**
 * Why a mail button is disabled (mail not set up, nobody to mail …), said beside it; the button names it with
 * `aria-describedby={id}`.
 */
export function MailProblem({ id, problem }: { id: string; problem: string }) {
  if (!problem) return null;
  return (
    <p id={id} role="note" className="text-[1.3rem] text-danger">
      {problem}
    </p>
  );
}
