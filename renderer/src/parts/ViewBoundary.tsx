import { Component, type ReactNode } from "react";
import { fill, translate, type Lang } from "../i18n";

interface Props {
  lang: Lang;
  children: ReactNode;
}

/**
 * A tab's view that fails to draw (a figure the view did not expect) shows what went wrong in
 * its place; the other tabs, the board and the dig go on. Without it React unmounts the whole
 * app, and a report kept on the server blanked it again after every reload.
 */
export class ViewBoundary extends Component<Props, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error): { error: Error } {
    return { error };
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    const t = (k: "viewFailed" | "viewRetry") => translate(this.props.lang, k);
    return (
      <div className="error" role="alert" data-testid="view-failed">
        {fill(t("viewFailed"), { message: error.message })} <button onClick={() => this.setState({ error: null })}>{t("viewRetry")}</button>
      </div>
    );
  }
}
