export interface AnnouncementItem {
  type: string;
  message: string;
}

/** Spec §9: a promotion is shown in green, any other type in yellow. */
export const announcementTone = (type: string): "promotion" | "notice" => (type === "promotion" ? "promotion" : "notice");
