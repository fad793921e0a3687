import type { LucideIcon, LucideProps } from "lucide-react";
import {
  Bell,
  Check,
  ChevronDown,
  Clapperboard,
  Gift,
  Image,
  ImagePlus,
  Menu,
  MessageCircle,
  Music,
  Trees,
  TriangleAlert,
  Video,
  WifiOff,
  X,
} from "lucide-react";

// The icons the interface draws, from one set (Lucide, ISC licence) so they look alike and show on
// every device: emoji depend on a font some phones and computers lack, and show there as empty boxes.
// Each is decorative (the text beside it or the control's label says what it means), so screen
// readers skip it.

const decorative =
  (Icon: LucideIcon) =>
  ({ size = "1.1em", strokeWidth = 2, ...props }: LucideProps) => (
    <Icon aria-hidden="true" focusable="false" size={size} strokeWidth={strokeWidth} {...props} />
  );

export const AddPhotoIcon = decorative(ImagePlus);
export const AlertIcon = decorative(TriangleAlert);
export const BellIcon = decorative(Bell);
export const CheckIcon = decorative(Check);
export const ChatIcon = decorative(MessageCircle);
export const CloseIcon = decorative(X);
export const DisclosureIcon = decorative(ChevronDown);
export const FilmIcon = decorative(Clapperboard);
export const GiftIcon = decorative(Gift);
export const MenuIcon = decorative(Menu);
export const MusicIcon = decorative(Music);
export const PhotoIcon = decorative(Image);
export const TreesIcon = decorative(Trees);
export const VideoIcon = decorative(Video);
export const OfflineIcon = decorative(WifiOff);
