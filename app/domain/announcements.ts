export interface AnnouncementItem {
  type: string;
  message: string;
  /** Where the message leads, if anywhere: a page of the site or an https address. */
  link?: string | null;
}

/** Spec §9: a promotion is shown in green, any other type in yellow. */
export const announcementTone = (type: string): "promotion" | "notice" => (type === "promotion" ? "promotion" : "notice");
